import { isSecretKeyName, keyWords } from "./key-names.ts";
import type { HomelabRule } from "./rule.ts";
import { isPlaceholderValue } from "./values.ts";

/** Flags that name a secret but take none: `--ask-pass`, `--no-password`, `--password-stdin`. */
const NOT_A_VALUE_FLAG = new Set([
  "ask",
  "no",
  "prompt",
  "show",
  "print",
  "change",
  "reset",
  "read",
  "from",
  "use",
]);

/** Secrets on command lines: `--db-password x`, `mysql -pX`, `curl -u user:pw`, `sshpass -p`, … */
export const COMMAND_RULES: readonly HomelabRule[] = [
  {
    id: "secret-flag",
    keywords: ["--"],
    pattern:
      /(?<![\w-])--(?<flag>[A-Za-z0-9][A-Za-z0-9-]{0,60})(?:=|[ \t]+)(?:"(?<secret>(?:[^"\\\r\n]|\\.){1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>[^\s"'`-][^\s]{0,1023}))/,
    accept: ({ match, secret }) => {
      const flag = match.groups?.flag ?? "";
      if (!isSecretKeyName(flag) || NOT_A_VALUE_FLAG.has(keyWords(flag)[0] ?? "")) return false;
      return !isPlaceholderValue(secret);
    },
    examples: [
      { text: "restic --password hunter2 backup", secret: "hunter2" },
      { text: "k3s agent --token=K10abc::server:s3cr3tjoin", secret: "s3cr3tjoin" },
      { text: 'wget --http-password "pa ss" https://x', secret: "pa ss" },
    ],
    keeps: [
      "echo $PW | docker login --password-stdin -u bob registry.lan",
      "ansible-playbook --ask-pass site.yml",
      "psql --no-password -h db",
    ],
  },
  {
    id: "mysql-password-flag",
    keywords: ["mysql", "mariadb"],
    pattern:
      /\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlcheck|mysqlimport)\b[^\n|;&]{0,512}?[ \t]-p(?<secret>[^\s-]\S{0,1023})/,
    examples: [{ text: "mysql -u root -pTopSecret -e 'show databases'", secret: "TopSecret" }],
  },
  {
    id: "sshpass-password",
    keywords: ["sshpass"],
    pattern:
      /\bsshpass[ \t]+-p[ \t]*(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [{ text: "sshpass -p 'Hunter22 x' ssh root@nas", secret: "Hunter22 x" }],
  },
  {
    // curl -u / --user / --proxy-user user:pass: the part after the first colon.
    id: "curl-user-password",
    keywords: ["curl"],
    pattern:
      /\bcurl\b[^\n|;&]{0,512}?[ \t](?:-[uU][ \t]*|--(?:proxy-)?user(?:=|[ \t]+))(?:"[^":\r\n]{0,256}:(?<secret>[^"\r\n]{1,1024})"|'[^':\r\n]{0,256}:(?<secret>[^'\r\n]{1,1024})'|[^\s:"']{0,256}:(?<secret>\S{1,1024}))/,
    examples: [
      { text: "curl -u admin:Hunter22x https://pve:8006/api2/json", secret: "Hunter22x" },
      { text: "curl --user='admin:pa ss' https://x", secret: "pa ss" },
    ],
    keeps: ["curl -u admin https://x", "docker run -u 1000:1000 alpine id"],
  },
  {
    // Samba tools: -U user%pass, --user=user%pass.
    id: "samba-user-password",
    keywords: ["%"],
    pattern:
      /[ \t](?:-U[ \t]*|--user(?:name)?(?:=|[ \t]+))(?:"[^"%\r\n]{0,256}%(?<secret>[^"\r\n]{1,1024})"|'[^'%\r\n]{0,256}%(?<secret>[^'\r\n]{1,1024})'|[^\s"'%]{0,256}%(?<secret>\S{1,1024}))/,
    examples: [{ text: "smbclient //nas/share -U bob%Hunter22x -c ls", secret: "Hunter22x" }],
  },
  {
    id: "redis-cli-password",
    keywords: ["redis-cli"],
    pattern:
      /\bredis-cli\b[^\n|;&]{0,512}?[ \t](?:-a|--pass)(?:=|[ \t]+)(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [{ text: "redis-cli -h 10.0.0.2 -a Hunter22x ping", secret: "Hunter22x" }],
  },
  {
    id: "registry-login-password",
    keywords: ["login"],
    pattern:
      /(?<=\b(?:docker|podman|nerdctl|buildah|skopeo|helm[ \t]+registry|oras|crane)[ \t]+)login\b[^\n|;&]{0,512}?[ \t]-p(?:=|[ \t]+)?(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [{ text: "docker login -u bob -p Hunter22x registry.lan", secret: "Hunter22x" }],
  },
  {
    id: "rclone-config-secret",
    keywords: ["rclone"],
    pattern:
      /(?<=\brclone[ \t]+config[ \t]+(?:create|update)\b[^\n|;&]{0,1024})[ \t](?:secret_access_key|access_key_id|session_token|pass|password2?|client_secret|token|account_key|key|sas_url|service_account_credentials)(?:=|[ \t]+)(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [
      {
        text: "rclone config create b2 s3 provider Other access_key_id 0051a2b3c4d5e6f secret_access_key K005abcSecretValue",
        secret: "K005abcSecretValue",
      },
    ],
  },
  {
    // openssl -pass pass:x / -passin pass:x / -passout pass:x / -k x.
    id: "openssl-password",
    keywords: ["pass:"],
    pattern:
      /[ \t]-pass(?:in|out)?[ \t]+pass:(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [{ text: "openssl enc -aes-256-cbc -pass pass:0pensslPw -in x", secret: "0pensslPw" }],
  },
  {
    id: "ldap-bind-password",
    keywords: ["ldap"],
    pattern:
      /\bldap[a-z]{2,12}\b[^\n|;&]{0,512}?[ \t]-w[ \t]*(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [{ text: "ldapsearch -x -D cn=admin,dc=lan -w LdapB1nd -b dc=lan", secret: "LdapB1nd" }],
  },
  {
    id: "htpasswd-batch-password",
    keywords: ["htpasswd"],
    pattern:
      /\bhtpasswd[ \t]+(?:-[A-Za-z]{1,8}[ \t]+)*-[A-Za-z]{0,7}b[A-Za-z]{0,7}[ \t]+(?:-[A-Za-z]{1,8}[ \t]+)*\S{1,1024}[ \t]+\S{1,256}[ \t]+(?<secret>\S{1,1024})/,
    examples: [{ text: "htpasswd -cb /etc/nginx/.htpasswd admin Htp4sswd!", secret: "Htp4sswd!" }],
  },
  {
    // echo 'user:pass' | chpasswd, and echo pass | passwd --stdin user.
    id: "chpasswd-input",
    keywords: ["passwd"],
    pattern:
      /\becho[ \t]+(?:-[ne][ \t]+)?["']?[a-z_][a-z0-9_.-]{0,31}:(?<secret>[^\s"':|]{1,1024})["']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd|\becho[ \t]+(?:-[ne][ \t]+)?(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>[^\s|]{1,1024}))[ \t]*\|[ \t]*(?:sudo[ \t]+)?passwd[ \t]+--stdin/,
    examples: [
      { text: "echo 'bob:Chp4ssw0rd' | sudo chpasswd", secret: "Chp4ssw0rd" },
      { text: "echo St1nPw | passwd --stdin bob", secret: "St1nPw" },
    ],
  },
  {
    // Found by an outside look at redaction (issue 13): net-snmp's community (-c) and v3 auth/privacy
    // pass phrases (-A, -X) on every snmp* tool's command line.
    id: "snmp-credentials",
    keywords: ["snmp"],
    pattern:
      /(?<=\bsnmp(?!trapd\b)[a-z]{2,12}\b[^\n|;&]{0,512})[ \t]-[cAX][ \t]*(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [
      { text: "snmpwalk -v2c -c s3cr3tcommunity 10.0.0.1", secret: "s3cr3tcommunity" },
      {
        text: "snmpget -v3 -l authPriv -u admin -a SHA -A Auth9Phrase -x AES -X Priv9Phrase sw1 sysUpTime.0",
        secret: "Priv9Phrase",
      },
    ],
    keeps: [
      "snmpwalk -v3 -l authPriv -u admin -a SHA -x AES sw1 system",
      "snmptrapd -f -Lo -c /etc/snmp/snmptrapd.conf",
    ],
  },
  {
    // ipmitool -P <password> (the BMC's password on the command line).
    id: "ipmitool-password",
    keywords: ["ipmitool"],
    pattern:
      /(?<=\bipmitool\b[^\n|;&]{0,512})[ \t]-P[ \t]*(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/,
    examples: [
      {
        text: "ipmitool -I lanplus -H 10.0.0.9 -U ADMIN -P Bmc9Passw0rd chassis status",
        secret: "Bmc9Passw0rd",
      },
    ],
    keeps: ["ipmitool -I lanplus -H 10.0.0.9 -U ADMIN -E chassis status"],
  },
  {
    // openssl enc -k <password>, and the password argument of `openssl passwd`.
    id: "openssl-password-argument",
    keywords: ["openssl"],
    pattern:
      /(?<=\bopenssl\b[^\n|;&]{0,512})[ \t]-k[ \t]+(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))|\bopenssl[ \t]+passwd(?:[ \t]+(?:-(?:salt|in)[ \t]+\S{1,256}|-[A-Za-z0-9]{1,8}))*[ \t]+(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>[^\s<>|;&-]\S{0,1023}))/,
    examples: [
      { text: "openssl enc -aes-256-cbc -k EncPassw0rd9 -in backup.tar", secret: "EncPassw0rd9" },
      { text: "openssl passwd -6 -salt x9 Sh4dowPw9", secret: "Sh4dowPw9" },
    ],
    keeps: ["openssl passwd -6 -stdin < pw.txt", "openssl x509 -in cert.pem -noout -text"],
  },
  {
    // A password piped into sudo -S (read from stdin), and a `chpasswd <<< 'user:pass'` here-string.
    id: "stdin-password",
    keywords: ["sudo", "chpasswd"],
    pattern:
      /\becho[ \t]+(?:-[ne][ \t]+)?(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>[^\s|]{1,1024}))[ \t]*\|[ \t]*sudo[ \t]+(?:-[A-Za-z]{0,8}[ \t]+)*-[A-Za-z]{0,8}S|\bchpasswd[ \t]*<<<[ \t]*["']?[a-z_][a-z0-9_.-]{0,31}:(?<secret>[^\s"']{1,1024})/,
    examples: [
      { text: "echo 'Sud0Passw0rd' | sudo -S apt update", secret: "Sud0Passw0rd" },
      { text: "chpasswd <<< 'root:Here5tringPw'", secret: "Here5tringPw" },
    ],
    keeps: ["echo hello | sudo tee /etc/motd", "sudo -S true < /dev/null"],
  },
];
