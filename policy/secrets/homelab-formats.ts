import type { Candidate, HomelabRule } from "./rule.ts";
import { isPlaceholderValue, readsAsProse } from "./values.ts";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/** Key files, password hashes, credential files, HTTP credentials and Proxmox/Kubernetes secrets. */
export const FORMAT_RULES: readonly HomelabRule[] = [
  {
    // A cloud CLI's own configuration listing: the provider's name, then its secret key quoted, with
    // no key name in between (a table row, a remote listing): the AWS secret key shape, 40
    // characters of base64 with both cases and a digit. A quoted git SHA (hex) is not one.
    id: "cloud-cli-quoted-key",
    keywords: [
      "aws",
      "amazon",
      "s3",
      "minio",
      "wasabi",
      "b2",
      "backblaze",
      "gcs",
      "gcloud",
      "google",
      "azure",
      "az",
      "spaces",
      "digitalocean",
      "linode",
      "r2",
      "cloudflare",
      "scaleway",
      "ovh",
      "hetzner",
    ],
    pattern:
      /\b(?:aws|amazon|s3|minio|wasabi|b2|backblaze|gcs|gcloud|google|azure|az|spaces|digitalocean|linode|r2|cloudflare|scaleway|ovh|hetzner)\b[^\r\n"']{0,48}["'](?<secret>[A-Za-z0-9/+]{40})["']/i,
    accept: ({ secret }) => /[a-z]/.test(secret) && /[A-Z]/.test(secret) && /\d/.test(secret),
    examples: [
      {
        text: 'aws    "Zk3vB9qL2mT8xR4pW7nY1cD6fH0jK5sA3gE9uI2o"',
        secret: "Zk3vB9qL2mT8xR4pW7nY1cD6fH0jK5sA3gE9uI2o",
      },
      {
        text: "wasabi  s3  'q8Lm2Xv7Rt4Nb9Kc1Zp6Wd3Hf5Js0Ga8Ye2Ui7Oa'  us-east-1",
        secret: "q8Lm2Xv7Rt4Nb9Kc1Zp6Wd3Hf5Js0Ga8Ye2Ui7Oa",
      },
      // The pattern names gcloud and az too: each is a keyword, or the rule never runs on them alone.
      {
        text: 'gcloud "Hq7Tz2Wm9Kc4Nx1Vb6Rt3Lp8Dj5Fg0Ya2Ue7Io4X"',
        secret: "Hq7Tz2Wm9Kc4Nx1Vb6Rt3Lp8Dj5Fg0Ya2Ue7Io4X",
      },
      {
        text: "az  'Pm3Xk8Qz1Rv6Wt2Ny9Lb4Hc7Jd0Sf5Ga2Ue8Io1Y'",
        secret: "Pm3Xk8Qz1Rv6Wt2Ny9Lb4Hc7Jd0Sf5Ga2Ue8Io1Y",
      },
    ],
    keeps: [
      'aws "arn:aws:iam::123456789012:role/backup-writer"',
      "s3 'd40cca85f0f54f30445a3577e18a0a5abcca95bf'",
      'minio "dGhpcyBpcyBhIHBsYWluIHNlbnRlbmNlIHJlYWxseQ"',
    ],
  },
  {
    // The whole block; a block cut off by capped output is redacted to the end of the text.
    id: "private-key-block",
    keywords: ["begin"],
    pattern:
      /-{4,5} ?BEGIN [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)? ?-{4,5}[\s\S]*?(?:-{4,5} ?END [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)? ?-{4,5}|$)/,
    examples: [
      {
        text: "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGZxyzABCAC1secretbody\n=AbCd\n-----END PGP PRIVATE KEY BLOCK-----\n",
        secret: "lQOYBGZxyzABCAC1secretbody",
      },
      { text: "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBsecretkeybody", secret: "MHcCAQEEIBsecretkeybody" },
    ],
    keeps: ["-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----"],
  },
  {
    // OpenVPN tls-auth / tls-crypt / secret static keys.
    id: "openvpn-static-key",
    keywords: ["openvpn static key"],
    pattern: /-----BEGIN OpenVPN Static key V\d-----[\s\S]*?(?:-----END OpenVPN Static key V\d-----|$)/,
    examples: [
      {
        text: "<tls-crypt>\n-----BEGIN OpenVPN Static key V1-----\n6acef03f62675b4b1bbd03e53b187727\n-----END OpenVPN Static key V1-----\n</tls-crypt>",
        secret: "6acef03f62675b4b1bbd03e53b187727",
      },
    ],
  },
  {
    // The body and END line of a key whose BEGIN line fell into the dropped middle of capped output.
    id: "private-key-tail",
    keywords: ["private key"],
    scan: findCutPrivateKeyTails,
    examples: [
      {
        text: "…\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----",
        secret: "b3BlbnNzaC1rZXktdjEAAAAA",
      },
    ],
  },
  {
    // base64 of a PEM private key: kubeconfig client-key-data, Kubernetes tls.key, Helm values.
    id: "private-key-base64",
    keywords: ["ls0tls1crudjt"],
    pattern: /LS0tLS1CRUdJT[A-Za-z0-9+/]{20,}={0,2}/,
    accept: ({ secret }) =>
      Buffer.from(secret.slice(0, 96), "base64").toString("latin1").includes("PRIVATE KEY"),
    examples: [
      {
        text: `client-key-data: ${Buffer.from("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecret\n-----END RSA PRIVATE KEY-----\n").toString("base64")}`,
        secret: "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBc2VjcmV0",
      },
    ],
    keeps: [
      `certificate-authority-data: ${Buffer.from("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n").toString("base64")}`,
    ],
  },
  {
    // PuTTY .ppk: the private lines and their MAC.
    id: "putty-private-key",
    keywords: ["private-lines", "private-mac"],
    pattern:
      /^Private-Lines:[ \t]*\d{1,4}\r?\n(?<secret>(?:[A-Za-z0-9+/=]{1,128}(?:\r?\n|$))+)|^Private-MAC:[ \t]*(?<secret>[0-9a-fA-F]{20,128})/m,
    examples: [
      {
        text: "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIGJ3b2prZXlzZWNyZXRib2R5aGVyZQ==\nPrivate-MAC: 4b7d1e1c2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d\n",
        secret: "AAAAIGJ3b2prZXlzZWNyZXRib2R5aGVyZQ==",
      },
    ],
  },
  {
    // crypt(3) hashes: /etc/shadow, htpasswd, mkpasswd, useradd -p. Offline-crackable, so secret.
    id: "password-hash-crypt",
    keywords: [
      "$1$",
      "$2a$",
      "$2b$",
      "$2x$",
      "$2y$",
      "$5$",
      "$6$",
      "$7$",
      "$y$",
      "$gy$",
      "$apr1$",
      "$sha1$",
      "$md5",
      "$argon2",
    ],
    pattern: /\$(?:1|2[abxy]|5|6|7|y|gy|apr1|sha1|md5|argon2(?:id|i|d))\$[A-Za-z0-9./$=,+-]{8,1024}/,
    examples: [
      {
        text: "root:$y$j9T$Nf8fMqI0oGmI8dOqH8ZVF/$1rSp7rXW0ZmK8wU3vC9GkL5XQZkZpC.dFqv9L7Uv6S3:19700:0:99999:7:::",
        secret: "1rSp7rXW0ZmK8wU3vC9GkL5XQZkZpC",
      },
      { text: "admin:$apr1$3kF8sQ2p$Tq8b0Q1xv9rZ5mL2nC7yA/", secret: "Tq8b0Q1xv9rZ5mL2nC7yA" },
    ],
    keeps: ["echo $1 $2 $6", "price: $5 or $6"],
  },
  {
    id: "password-hash-scheme",
    keywords: ["{ssha", "{sha", "{crypt}", "{md5}", "{smd5}", "{pbkdf2", "{argon2}", "pbkdf2"],
    pattern:
      /\{(?:SSHA(?:256|512)?|SHA(?:256|512)?|SMD5|MD5|CRYPT|PBKDF2[-A-Z0-9]{0,12}|ARGON2)\}(?<secret>[A-Za-z0-9+/=.$-]{8,1024})|\bpbkdf2[_:]sha\d{1,3}(?::\d{1,7})?\$[A-Za-z0-9+/=.$]{8,1024}/i,
    examples: [
      { text: "userPassword: {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=", secret: "W6ph5Mm5Pz8GgiULbPgzG37mj9g=" },
      { text: "pbkdf2_sha256$600000$Qx1salt$Yk2hash3Zl4m5n6o7p8=", secret: "Yk2hash3Zl4m5n6o7p8=" },
    ],
  },
  {
    // MySQL mysql_native_password hashes (SELECT authentication_string FROM mysql.user).
    id: "password-hash-mysql",
    keywords: ["*"],
    pattern: /(?<![0-9A-Za-z*])\*[0-9A-F]{40}(?![0-9A-Za-z])/,
    examples: [
      {
        text: "| root | *6BB4837EB74329105EE4568DDA7DC67ED2CA2AD9 |",
        secret: "6BB4837EB74329105EE4568DDA7DC67ED2CA2AD9",
      },
    ],
  },
  {
    // ~/.netrc: machine host login user password secret.
    id: "netrc-password",
    keywords: ["machine", "default"],
    pattern:
      /\b(?:machine[ \t]+\S{1,256}|default)(?:\s+(?:login|account|port|protocol)\s+\S{1,256}){0,4}\s+password\s+(?<secret>\S{1,1024})/,
    examples: [{ text: "machine git.lan login bob password n3tRcS3cr3t\n", secret: "n3tRcS3cr3t" }],
  },
  {
    // ~/.pgpass: host:port:database:user:password.
    id: "pgpass-line",
    keywords: [":"],
    pattern:
      /^[^:\s#]{1,253}:(?:\d{1,5}|\*):[^:\s]{1,128}:[^:\s]{1,128}:(?<secret>(?:[^\r\n:\\]|\\.){1,1024})$/m,
    accept: ({ secret }) => !isPlaceholderValue(secret),
    examples: [{ text: "db.lan:5432:gitea:gitea:pgP4ssw0rd!\n", secret: "pgP4ssw0rd!" }],
    keeps: [
      "root:x:0:0:root:/root:/bin/bash",
      "sudo:x:27:bob",
      "10:30:00 up 3 days",
      "daemon:*:19700:0:99999:7:::",
    ],
  },
  {
    // Postfix sasl_passwd: [relay]:port user:password.
    id: "postfix-sasl-password",
    keywords: ["]"],
    pattern: /^\[[A-Za-z0-9.-]{1,253}\](?::\d{1,5})?[ \t]+[^\s:]{1,256}:(?<secret>[^\r\n]{1,1024})$/m,
    examples: [{ text: "[smtp.gmail.com]:587 alerts@example.com:app pass word", secret: "pass word" }],
  },
  {
    // `password secret` directives with no separator (msmtprc, fetchmailrc, chap-secrets style);
    // PAM's `password required pam_unix.so` lines are module stacks, not passwords.
    id: "password-directive",
    keywords: ["pass", "secret"],
    pattern:
      /^[ \t]*(?:password|passwd|pass|passphrase|secret)[ \t]+(?!(?:required|requisite|sufficient|optional|include|substack)(?:[ \t]|$)|\[)(?<secret>[^\s=:][^\r\n]{0,1023})/m,
    // `Password expires\t: never` (chage -l) is a label, not a directive.
    accept: ({ secret }) =>
      !isPlaceholderValue(secret) && !/^[A-Za-z]+(?:[ \t]+[A-Za-z]+)*[ \t]*:(?:[ \t]|$)/.test(secret),
    examples: [{ text: "account default\nhost smtp.lan\npassword Kj8#mP2$qL x\n", secret: "mP2$qL x" }],
    keeps: [
      "password\trequisite\t\t\tpam_pwquality.so retry=3",
      "password [success=1 default=ignore] pam_unix.so",
    ],
  },
  {
    // redis.conf directives and their CONFIG GET / CONFIG SET forms.
    id: "redis-password",
    keywords: ["requirepass", "masterauth"],
    pattern:
      /^[ \t]*(?:requirepass|masterauth)[ \t]+(?:"(?<secret>[^"\r\n]{1,1024})"|(?<secret>\S{1,1024}))|"(?:requirepass|masterauth)"[ \t]*\r?\n[ \t]*(?:\d{1,3}\)[ \t]*)?"(?<secret>[^"\r\n]{1,1024})"|\bconfig[ \t]+set[ \t]+(?:requirepass|masterauth)[ \t]+(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret>[^'\r\n]{1,1024})'|(?<secret>\S{1,1024}))/im,
    examples: [
      { text: "requirepass foobaredRedis42\n", secret: "foobaredRedis42" },
      { text: '1) "requirepass"\n2) "foobaredRedis42"\n', secret: "foobaredRedis42" },
      { text: "redis-cli CONFIG SET requirepass foobaredRedis42", secret: "foobaredRedis42" },
    ],
  },
  {
    // Redis ACL users: `user alice on >password ~* +@all`.
    id: "redis-acl-password",
    keywords: ["user"],
    pattern: /(?<=^[ \t]*|\bacl[ \t]+set)user[ \t]+[^\r\n>]{1,512}?[ \t]>(?<secret>\S{1,1024})/im,
    examples: [{ text: "user alice on >Al1ceRedisPw ~* +@all", secret: "Al1ceRedisPw" }],
  },
  {
    // user:password@ in any URL; the password may hold "/" or "@": it runs to the last "@" before a host.
    id: "url-credentials",
    keywords: ["://"],
    pattern:
      /:\/\/(?<user>[^\s:/@"'<>`]{0,128}):(?<secret>[^\s"'<>`]{1,256})@(?=[A-Za-z0-9._\-[\]]{1,253}(?::\d{1,5})?(?:[/?#\s"'`<>;,)\]]|$))/,
    // host:port/path@x is not a password (https://pve:8006/api2/json/access/users/root@pam).
    accept: ({ secret }) => !/^\d{1,5}(?:[/?#]|$)/.test(secret) && !isPlaceholderValue(secret),
    examples: [
      { text: "postgres://oikos:verysecret@db:5432/oikos", secret: "verysecret" },
      { text: "DATABASE_URL=postgresql://app:p@ss/w0rd@db.lan:5432/app", secret: "ss/w0rd" },
      { text: "redis-cli -u redis://:Hunter22x@10.0.0.2:6379 ping", secret: "Hunter22x" },
      { text: "git clone https://deploy:glpat-xyz123@git.lan/app.git", secret: "glpat-xyz123" },
    ],
    keeps: [
      "curl -k https://pve:8006/api2/json/access/users/root@pam",
      "ssh://git@git.lan:2222/app.git",
      "https://git.lan/app.git",
    ],
  },
  {
    // Authorization headers, any scheme; header lines take the rest of the line (Digest carries several fields).
    id: "authorization-header",
    keywords: ["authorization"],
    pattern:
      /^[ \t>]*(?:proxy-)?authorization:[ \t]*(?:(?:bearer|basic|token|bot|negotiate|ntlm|apikey|sso-key)[ \t]+)?(?<secret>[^\r\n]{1,4096})|\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|bot|negotiate|ntlm|apikey|sso-key)[ \t]+)?(?<secret>[^\s"',;]{1,4096})/im,
    // `Authorization: Bearer <token> is required (…)`: our own advice names the header, it holds none.
    accept: ({ secret }) => !isPlaceholderValue(secret) && !readsAsProse(secret),
    examples: [
      {
        text: '> Authorization: Digest username="bob", response="6629fae49393a05397450978507c4ef1"',
        secret: "6629fae49393a05397450978507c4ef1",
      },
      {
        text: "Authorization: PVEAPIToken=root@pam!ci=0b0e1f8a-7c6d-4e5f-9a8b-1c2d3e4f5a6b",
        secret: "0b0e1f8a-7c6d",
      },
    ],
  },
  {
    id: "bearer-token",
    keywords: ["bearer"],
    pattern: /\bbearer[ \t]+(?<secret>[A-Za-z0-9._~+/=-]{8,4096})/i,
    examples: [
      { text: "curl --oauth2-bearer x -H 'x: Bearer abcdef1234567890'", secret: "abcdef1234567890" },
    ],
  },
  {
    // Cookie / Set-Cookie headers (all values), and curl -b / --cookie.
    id: "cookie-header",
    keywords: ["cookie", "curl"],
    pattern:
      /\b(?:set-)?cookie["']?[ \t]*:[ \t]*(?:"(?<secret>[^"\r\n]{1,4096})"|'(?<secret>[^'\r\n]{1,4096})'|(?<secret>[^\r\n]{1,4096}))|\bcurl\b[^\r\n|;&]{0,512}?[ \t](?:-b|--cookie)(?:=|[ \t]+)(?:"(?<secret>[^"\r\n]{1,4096})"|'(?<secret>[^'\r\n]{1,4096})'|(?<secret>\S{1,4096}))/i,
    accept: ({ secret }) => !isPlaceholderValue(secret),
    examples: [
      {
        text: "Cookie: sessionid=8f14e45fceea167a5a36dedd4bea2543; theme=dark",
        secret: "8f14e45fceea167a5a36dedd4bea2543",
      },
      {
        text: "< Set-Cookie: grafana_session=1a2b3c4d5e6f7a8b; Path=/; HttpOnly",
        secret: "1a2b3c4d5e6f7a8b",
      },
      {
        text: "curl -b 'PHPSESSID=r2t5uvjq435r4q7ib3vtdjq120' https://x",
        secret: "r2t5uvjq435r4q7ib3vtdjq120",
      },
    ],
  },
  {
    id: "proxmox-auth-cookie",
    keywords: ["pveauthcookie", "pve:"],
    pattern:
      /\bPVEAuthCookie[ \t]*[=:][ \t]*(?:"(?<secret>[^"]{1,4096})"|'(?<secret>[^']{1,4096})'|(?<secret>[^\s;,"']{1,4096}))|\bPVE:[^\s:"']{1,256}:[0-9A-F]{8}::[A-Za-z0-9+/=]{8,4096}/,
    examples: [
      {
        text: '{"ticket":"PVE:root@pam:65F1A2B3::c2lnbmF0dXJlc2lnbmF0dXJl"}',
        secret: "c2lnbmF0dXJlc2lnbmF0dXJl",
      },
    ],
  },
  {
    // A Proxmox API token written as USER@REALM!TOKENID=SECRET (PVEAPIToken header, Terraform, curl).
    id: "proxmox-api-token",
    keywords: ["!"],
    pattern: new RegExp(`(?<=@[A-Za-z0-9._-]{1,64})![A-Za-z0-9._-]{1,64}[=:][ \\t]?(?<secret>${UUID})`),
    examples: [
      {
        text: "PVE_TOKEN=terraform@pve!tf=5c7d3c0e-2b8c-4a8b-9a43-5d3e5e0c1f2a",
        secret: "5c7d3c0e-2b8c-4a8b-9a43-5d3e5e0c1f2a",
      },
    ],
  },
  {
    // The secret `value` of `pveum user token add` (table) and `pvesh create …/token/…` (JSON).
    id: "proxmox-token-value",
    keywords: ["value"],
    pattern: new RegExp(`\\bvalue\\b["']?[ \\t]*[│|:=,]?[ \\t]*["']?(?<secret>${UUID})`, "i"),
    accept: ({ text, start }: Candidate) =>
      /tokenid/i.test(text.slice(Math.max(0, start - 2000), start + 2000)),
    examples: [
      {
        text: "│ full-tokenid │ root@pam!ci                          │\n├──────────────┼──────────────────────────────────────┤\n│ value        │ 7e1c5a2b-9d4f-4c3e-8b6a-2f1e0d9c8b7a │",
        secret: "7e1c5a2b-9d4f-4c3e-8b6a-2f1e0d9c8b7a",
      },
      {
        text: '{"full-tokenid":"root@pam!ci","info":{"privsep":"1"},"value":"7e1c5a2b-9d4f-4c3e-8b6a-2f1e0d9c8b7a"}',
        secret: "7e1c5a2b-9d4f-4c3e-8b6a-2f1e0d9c8b7a",
      },
    ],
    keeps: ['{"key":"uuid","value":"7e1c5a2b-9d4f-4c3e-8b6a-2f1e0d9c8b7a"}'],
  },
  {
    // Kubernetes Secret manifests (kubectl get secret -o yaml): every entry under data / stringData.
    id: "kubernetes-secret-data",
    keywords: ["secret"],
    scan: findKubernetesSecretValues,
    examples: [
      {
        text: "apiVersion: v1\ndata:\n  password: aHVudGVyMmh1bnRlcjI=\n  username: Ym9i\nkind: Secret\nmetadata:\n  name: db\n",
        secret: "aHVudGVyMmh1bnRlcjI=",
      },
    ],
    keeps: ["apiVersion: v1\ndata:\n  nginx.conf: worker_processes 1\nkind: ConfigMap\n"],
  },
  {
    id: "kubernetes-secret-data-json",
    keywords: ["secret"],
    pattern: /"(?:data|stringData)"[ \t]*:[ \t]*\{(?<secret>[^{}]{1,65536})\}/,
    accept: ({ text, start }) =>
      /"kind"\s*:\s*"Secret"/.test(text.slice(Math.max(0, start - 4000), start + 70000)),
    examples: [
      {
        text: '{"apiVersion":"v1","data":{"password":"aHVudGVyMmh1bnRlcjI="},"kind":"Secret"}',
        secret: "aHVudGVyMmh1bnRlcjI=",
      },
    ],
  },
];

/**
 * Each `-----END … PRIVATE KEY-----` line, with the base64 run (lines included) right before it.
 * Read backwards from the END marker by hand: a pattern would have to try every base64 run.
 */
function* findCutPrivateKeyTails(text: string): Generator<[number, number]> {
  const endLine = /-{4,5} ?END [A-Z0-9 _-]{0,100}PRIVATE KEY(?: BLOCK)? ?-{4,5}/g;
  for (let match = endLine.exec(text); match !== null; match = endLine.exec(text)) {
    let start = match.index;
    while (start > 0 && isBase64OrNewline(text.charCodeAt(start - 1))) start--;
    while (text[start] === "\n" || text[start] === "\r") start++;
    yield [start, match.index + match[0].length];
  }
}

function isBase64OrNewline(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 10 ||
    code === 13
  );
}

/**
 * The values under `data:` / `stringData:` in each YAML document (split at `---`) that declares
 * `kind: Secret`, read line by line: one pass, whatever the document's size.
 */
function* findKubernetesSecretValues(text: string): Generator<[number, number]> {
  const separator = /^---[ \t]*$/gm;
  let docStart = 0;
  while (docStart <= text.length) {
    separator.lastIndex = docStart;
    const next = separator.exec(text);
    const docEnd = next ? next.index : text.length;
    if (SECRET_KIND.test(text.slice(docStart, docEnd))) yield* dataValues(text, docStart, docEnd);
    if (!next) break;
    docStart = next.index + next[0].length;
  }
}

const SECRET_KIND = /^[ \t-]*["']?kind["']?:[ \t]*["']?Secret["']?[ \t]*$/m;

function* dataValues(text: string, from: number, to: number): Generator<[number, number]> {
  let blockIndent = -1;
  for (let lineStart = from; lineStart < to; ) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0 || lineEnd > to) lineEnd = to;
    const line = text.slice(lineStart, lineEnd);
    const indent = line.length - line.trimStart().length;
    const blank = line.trim().length === 0;
    if (!blank && blockIndent >= 0 && indent <= blockIndent) blockIndent = -1;
    if (blockIndent < 0) {
      const opening = /^([ \t-]*)(?:data|stringData):[ \t]*$/.exec(line);
      if (opening) blockIndent = opening[1]!.length;
    } else if (!blank) {
      const entry = /^[ \t]+["']?[A-Za-z0-9_.-]{1,253}["']?:[ \t]+(\S.*?)[ \t]*$/.exec(line);
      if (entry && !/^[|>][-+0-9]{0,2}$/.test(entry[1]!)) {
        const valueEnd = lineStart + line.trimEnd().length;
        yield [valueEnd - entry[1]!.length, valueEnd];
      } else if (!entry && indent > blockIndent) {
        yield [lineStart + indent, lineEnd]; // a line of a block scalar under an entry
      }
    }
    lineStart = lineEnd + 1;
  }
}
