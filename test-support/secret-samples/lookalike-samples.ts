// Generated once (seeded), then kept as data: output that looks like secrets and is not. Every
// text must come out of redaction unchanged.
export interface LookalikeSample {
  form: string;
  text: string;
}

export const LOOKALIKE_SAMPLES: readonly LookalikeSample[] = [
  {
    form: "sha256sum output",
    text: "d40cca85f0f54f30445a3577e18a0a5abcca95bf8e2f8559f823cdef7f73edd7  /srv/backup/db.sql.gz",
  },
  {
    form: "sha256sum output",
    text: "7b6c29163d00d68df6db75d0c3f7eb9340051e467ab4a36ee0987b3544242b30  ubuntu-24.04.iso",
  },
  {
    form: "sha256sum output",
    text: "e58d656ec4f3378c19cd5840f1aec544ad77bf39768915e2ed4a22437740af0d  /var/lib/vz/template/cache/debian-12.tar.zst",
  },
  {
    form: "sha256sum output",
    text: "c481ee214e69886dd9078d3fe0a0887bee1afbfa45289e0082c358452358902f  authorized_keys",
  },
  {
    form: "sha256sum output",
    text: "f3177e7e8c92637e64b6ba0865ef5aa370e2e30bdb0e7ab8d7e349effade2925  secrets.env.age",
  },
  {
    form: "sha256sum -c",
    text: "debian-12.iso: OK\nfd81b34bf7e8df33809cd89bf6e31c021f6b75d2715bd8a28f7d134bb8831b5b  debian-12.iso",
  },
  { form: "md5sum output", text: "d5a03d76e82f142f51d1c30ea83859da  /etc/ssh/sshd_config" },
  { form: "sha1sum output", text: "fc1eb03300183873de573ecad06b0974afa74193  token.txt" },
  {
    form: "b2sum output",
    text: "304885ee914f149f83b5ae08e9df0b3f13052ba131525fa27a6abde3911a95891fca76a9e28becdcb820372c310f04040699f0c60d9df89af707b1de74f1f714  vzdump-lxc-101.tar.zst",
  },
  {
    form: "sha512sum of a password file",
    text: "4a6262a997702652f2b23a015da2219027c30d5c984b859a94e7bbe96cc3e2ecff4615441050c5bf87362df09a5d7347a5a675c17bab6a01898f97ac27a8ebff  /root/passwords.kdbx",
  },
  {
    form: "blkid",
    text: '/dev/sda1: UUID="0ca9798b-9cd8-4c88-bd29-9ceab0477b86" BLOCK_SIZE="4096" TYPE="ext4" PARTUUID="867bfced-d727-454f-b3f3-91036207c9b8"',
  },
  { form: "fstab uuid", text: "UUID=8318ddf6-1ab3-417b-86b5-a868e23c779b /srv ext4 defaults,noatime 0 2" },
  {
    form: "lsblk -f",
    text: "NAME   FSTYPE FSVER LABEL UUID                                 FSAVAIL FSUSE% MOUNTPOINTS\nsda1   ext4   1.0         5c37163a-9652-420b-9921-d3b4e19cb3d7   41.2G    12% /",
  },
  { form: "kernel random uuid", text: "b05635a7-26ac-4248-886b-570a8e397aeb" },
  { form: "machine-id", text: "8ea359a4445038d18288ae22ce7cacb0" },
  {
    form: "dmidecode uuid",
    text: "System Information\n\tManufacturer: Supermicro\n\tUUID: 587E39CA-9AD4-4319-9A5A-07900B25B97E",
  },
  {
    form: "qm config",
    text: "boot: order=scsi0\ncores: 4\nmemory: 8192\nnet0: virtio=BC:24:11:22:D5:F6,bridge=vmbr0,firewall=1\nscsi0: local-zfs:vm-100-disk-0,iothread=1,size=64G\nsmbios1: uuid=43968b23-a006-44f4-acd7-c14619b1f5e1\nvmgenid: 13467489-8592-4195-9d6d-c239405b58ba",
  },
  {
    form: "pct config",
    text: "arch: amd64\nhostname: gitea\nmemory: 2048\nnet0: name=eth0,bridge=vmbr0,hwaddr=BC:24:11:AA:BB:CC,ip=dhcp,type=veth\nrootfs: local-zfs:subvol-101-disk-0,size=16G\nunprivileged: 1",
  },
  {
    form: "pveum token list",
    text: "┌─────────────┬─────────┬────────┬─────────┐\n│ tokenid     │ comment │ expire │ privsep │\n╞═════════════╪═════════╪════════╪═════════╡\n│ monitoring  │         │      0 │       1 │\n└─────────────┴─────────┴────────┴─────────┘",
  },
  {
    form: "pvesh get /nodes json",
    text: '[{"cpu":0.0312,"id":"node/pve","level":"","maxcpu":16,"node":"pve","ssl_fingerprint":"68:AC:B8:50:C8:13:FD:52:1D:D7:7C:DC:F0:23:47:C1:F5:9F:F4:79:04:5D:C1:CA:73:1E:44:DD:70:3D:B3:28","status":"online","type":"node","uptime":845213}]',
  },
  {
    form: "pvesh cluster resources",
    text: '[{"id":"qemu/100","name":"vm-0e59f7","node":"pve","status":"running","vmid":100,"uuid":"1682dd8e-175c-4a41-bbb8-c053a064575b"}]',
  },
  {
    form: "proxmox api url with user path",
    text: "curl -k https://pve.lan:8006/api2/json/access/users/root@pam",
  },
  { form: "proxmox token id without secret", text: "pveum user token remove root@pam!monitoring" },
  {
    form: "docker images",
    text: "REPOSITORY          TAG       IMAGE ID       CREATED        SIZE\nghcr.io/x/gitea     1.22      493741e69ec5   2 weeks ago    180MB\npostgres            16        cf4f96cdc308   3 weeks ago    432MB",
  },
  {
    form: "docker images",
    text: "REPOSITORY          TAG       IMAGE ID       CREATED        SIZE\nghcr.io/x/gitea     1.22      ead908dc5c7d   2 weeks ago    180MB\npostgres            16        5df063396f23   3 weeks ago    432MB",
  },
  {
    form: "docker ps",
    text: 'CONTAINER ID   IMAGE          COMMAND                  STATUS         NAMES\ne06356741a5b   nginx:1.27     "/docker-entrypoint.…"   Up 3 hours     proxy',
  },
  {
    form: "docker inspect id",
    text: '[{"Id": "fd6d448e34e6ff404da55431a692ab5c0077eceda213f8f53539f4911a52d1c6", "Created": "2024-05-01T10:00:00Z", "Image": "sha256:e746ac360d6eeeec4ab0a2d6a5397f597b9386c3f00a6b04de029675fe9d8e5a"}]',
  },
  {
    form: "image digest reference",
    text: "image: nginx@sha256:8fb0d54602bb8d7c925f47fae3463ab8de06ebcfd7a4ddd069b08c0947dacb0b",
  },
  {
    form: "docker pull digest",
    text: "Digest: sha256:8eb017c9212ab1861f0dcf92b2c5e0093e1a99d54f44d5eb7be5d17bfc4f6e75\nStatus: Downloaded newer image for postgres:16",
  },
  {
    form: "docker network ls",
    text: "NETWORK ID     NAME      DRIVER    SCOPE\nbcc05bf159a7   bridge    bridge    local\ned6853668b0a   host      host      local",
  },
  {
    form: "git log oneline",
    text: "ea41f5c fix nginx upstream\neaa5674 fix token refresh\nb111484 fix password policy",
  },
  { form: "git rev-parse", text: "14d8caf8cb6e81f350a4bc457cbb47b8473f88bd" },
  {
    form: "git log",
    text: "commit e538325c456a9920597ecfe5127ec1a099205574\nAuthor: Bob <bob@example.com>\nDate:   Mon May 6 10:00:00 2024 +0200\n\n    rotate secrets via vault\n",
  },
  {
    form: "git ls-remote",
    text: "ad60ca8308f3a2d5b79d4930e918aa18ef38d56d\tHEAD\n69ff64084c99e01ee8cefe06785df9b925437f3d\trefs/heads/main",
  },
  { form: "base64 of prose", text: "echo aGVsbG8gd29ybGQgZnJvbSB0aGUgaG9tZWxhYg== | base64 -d" },
  {
    form: "base64 of a config",
    text: "c2VydmVyIHsKICBsaXN0ZW4gODA7CiAgc2VydmVyX25hbWUgZ2l0ZWEubGFuOwp9Cg==",
  },
  {
    form: "certificate pem",
    text: "-----BEGIN CERTIFICATE-----\n7QTZjUSDUOHWjT2EvMaY3yFX4vs2UVCGXchq6g1VGPUci87TQ32fdUmPO37vr+eN\nQFzpT3lD1W9xVf3QEHCmvXQuyIzJL+7asgEaND0m+HQnlU4ZDoA/uKOo2SsYsjnR\n504LaRSOpTRO/AI6kyFpk5RO6ebCJy/mDGCrYICYawppgv9aUz/FASYPU3cZ4BpU\nUH18P/4I1gnkEYU+DeaaTDLZ2Q5wDx7W5JBzgEMBCMhshxigmyUBU8m1l2JnEZR5\n7o4Bj1x3EwH1qD5kfiz10DHs8GY1jMwbIltzDJn9Nl4ct2z8a98MV1eJsfHXBJmL\n-----END CERTIFICATE-----",
  },
  {
    form: "public key pem",
    text: "-----BEGIN PUBLIC KEY-----\nKFQ6BpNIJ9chftfocrjHTMn4MCVjFdA4D78ymZKr5p9pkYm+eD7oLxV8RnvtN4dA\nYgXWD0BA8IwONpXqpnvKAl60i5k=\n-----END PUBLIC KEY-----",
  },
  {
    form: "ssh ed25519 public key",
    text: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIcXoj0W9wag8TlTe0xkQtd2qvN0pHl9TNqFMbrhO5MuG bob@laptop",
  },
  {
    form: "ssh rsa public key",
    text: "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQJ24HzF8vDlhcIK13PluubvO8QDnwi+jlYkGnyHQjrSJSIuGYzS+dxSh7X2Iz7YDv1Qot5Bj093Y5B2TqMjdT73qkCC61Rs7gc4nvQDFBxUZRMBs7gckyttd6+N1aDNAF7bUUAyfOHpdgr7JCJT2GDpmxGAAB5o858txdOk6kX80bXIVk10TVfLlanAWhp1LlDfZ6kZyyJuExaypXMq83eX0Rk+IAKZ0k3ekL+UYlmOX/Cr0fjRjUzQwh2RQe89G8FqRS/6PfuH6waexLwjnrRYbJsPIwWyVQ0R2fN+F2lmmm= root@pve",
  },
  {
    form: "known_hosts",
    text: "|1|Rg6UI4GYDVnLLHZCfFrFbTxHtJQ=|bPj8RyNjEWbUqNR7fnhAyC+1nyE= ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIQYW60gw3WABfNsNZ+hCfjPYeA/8rpaP5MaPH3+ZpMPH",
  },
  {
    form: "ssh-keygen -l",
    text: "256 SHA256:VhOL/T7L2nfBKZqNDD4d8HttuHLN9sOL4gj3Utn0gaW bob@laptop (ED25519)",
  },
  {
    form: "sshd accepted publickey log",
    text: "May  6 10:00:01 pve sshd[2211]: Accepted publickey for root from 10.0.0.5 port 51234 ssh2: ED25519 SHA256:W22065OUv2Ici/byuTRczPoKcGfITEaldd1a/W4dOG2",
  },
  {
    form: "sshd failed password log",
    text: "May  6 10:00:01 pve sshd[2211]: Failed password for invalid user admin from 203.0.113.9 port 40022 ssh2",
  },
  {
    form: "wireguard public key",
    text: "[Peer]\nPublicKey = Ef3hGY0NwviByVOg0XkmWBMsHMXigqbEHRCBAuwLXHM=\nAllowedIPs = 10.8.0.2/32\nEndpoint = 198.51.100.7:51820",
  },
  {
    form: "wg show",
    text: "interface: wg0\n  public key: Fq0ApSGBd4l8Q4oElkVrkXbap7G4MoLRQbVsLS/BSAU=\n  private key: (hidden)\n  listening port: 51820\n\npeer: 0m5bufd4qY9/oXh1yEvEn7WoAOYsLgiXG7xr0oXakxE=\n  allowed ips: 10.8.0.2/32",
  },
  {
    form: "kubeconfig ca data",
    text: "clusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJ5bDk3TjhaVzBYbGpVQUZuaUJveFY0U1l0M2dPc1FPQk5BRmhod1J3Nzdxdmw4ZVd4MEo4Um5PVDgxSFI4ZGNHczNCa2czcm5acU4xZTBYZktHQUd2TEUzRDJ2T3RBbTRzS2pwa1RFdmFmRGZYSzRxeUtRb1JCREZDN1lXbzlicXJ5QlVOUjBTU3pIS09Cd2YxR1pCMUM4em9qR0dJckx3VzZWazVINlVuYk81MkJ5cDFNOWFmVG1hZjIySUVra2NnbEhwcVNHYQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0t\n    server: https://10.0.0.2:6443",
  },
  {
    form: "kubernetes configmap",
    text: "apiVersion: v1\ndata:\n  nginx.conf: |\n    worker_processes 1;\n  mode: production\nkind: ConfigMap\nmetadata:\n  name: web",
  },
  {
    form: "kubectl get secrets list",
    text: "NAME                  TYPE                DATA   AGE\ngitea-tls             kubernetes.io/tls   2      41d\ngitea-db              Opaque              2      41d",
  },
  {
    form: "kubernetes secretKeyRef",
    text: "env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: gitea-db\n      key: password",
  },
  {
    form: "kubernetes tolerations",
    text: "tolerations:\n- key: node-role.kubernetes.io/control-plane\n  operator: Exists\n  effect: NoSchedule",
  },
  {
    form: "kubernetes uid",
    text: 'metadata:\n  name: gitea-0\n  uid: ceffabdb-6237-4d39-94f3-e9de6208ec23\n  resourceVersion: "918273"',
  },
  {
    form: "kubectl get pods",
    text: "NAME                     READY   STATUS    RESTARTS   AGE\ngitea-e112e47897-m6t42   1/1     Running   0          3d",
  },
  { form: "postgresql.conf", text: "password_encryption = scram-sha-256\nssl = on\nmax_connections = 100" },
  {
    form: "sshd_config",
    text: "PasswordAuthentication no\nPermitEmptyPasswords no\nKbdInteractiveAuthentication no\nPubkeyAuthentication yes",
  },
  {
    form: "sshd -T",
    text: "passwordauthentication no\npermitrootlogin prohibit-password\nauthenticationmethods any",
  },
  {
    form: "pam common-password",
    text: "password\trequisite\t\t\tpam_pwquality.so retry=3\npassword\t[success=1 default=ignore]\tpam_unix.so obscure use_authtok try_first_pass yescrypt\npassword\trequired\t\t\tpam_permit.so",
  },
  {
    form: "pam common-auth",
    text: "auth\t[success=1 default=ignore]\tpam_unix.so nullok\nauth\trequisite\t\t\tpam_deny.so",
  },
  {
    form: "nsswitch.conf",
    text: "passwd:         files systemd\ngroup:          files systemd\nshadow:         files\nhosts:          files dns",
  },
  {
    form: "/etc/passwd",
    text: "root:x:0:0:root:/root:/bin/bash\nbob:x:1000:1000:Bob,,,:/home/bob:/bin/bash",
  },
  {
    form: "/etc/shadow locked accounts",
    text: "daemon:*:19700:0:99999:7:::\nbin:*:19700:0:99999:7:::\nbob:!:19700:0:99999:7:::",
  },
  {
    form: "chage -l",
    text: "Last password change\t\t\t\t\t: May 06, 2024\nPassword expires\t\t\t\t\t: never\nPassword inactive\t\t\t\t\t: never\nMinimum number of days between password change\t\t: 0",
  },
  { form: "model usage counts", text: "prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290" },
  { form: "llm config", text: "max_tokens: 4096\ntemperature: 0.2\ntoken_limit=8000" },
  {
    form: "secret name references",
    text: "secretName: gitea-tls\nsecret_name: db-creds\nexistingSecret: grafana-admin",
  },
  {
    form: "password file references",
    text: "POSTGRES_PASSWORD_FILE=/run/secrets/db_password\npassword_file: /etc/mosquitto/passwd\nssh_key_file=/root/.ssh/id_ed25519",
  },
  {
    form: "placeholders",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is literal ${VAR} text
    text: "password: ${DB_PASSWORD}\ntoken: {{ vault_token }}\napi_key: <your-api-key>\nsecret: $SECRET\nGITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
  },
  { form: "masked values", text: "password: ********\nsecret: ****\ntoken: [REDACTED]" },
  {
    form: "boolean auth settings",
    text: "auth: true\nauth_enabled: false\nrequire_auth: yes\nbasic_auth: off",
  },
  {
    form: "token ttl and urls",
    text: "token_ttl: 1h\ntoken_url: https://auth.lan/oauth/token\napi_url: https://api.lan/v1\ntoken_type: Bearer",
  },
  {
    form: "git config credential helper",
    text: "credential.helper=store\nuser.name=Bob\nuser.email=bob@example.com",
  },
  {
    form: "public key settings",
    text: "PUBLIC_KEY=/etc/ssl/pub.pem\npublic_key: ssh-ed25519\nkey_id: 7\nprimary_key: id",
  },
  {
    form: "ssh auth socket env",
    text: "SSH_AUTH_SOCK=/tmp/ssh-XXXXabcd/agent.1234\nHOME=/root\nLANG=C.UTF-8",
  },
  {
    form: "nginx access log",
    text: '10.0.0.5 - - [06/May/2024:10:00:00 +0000] "GET /api/tokens?page=2 HTTP/1.1" 200 512 "-" "curl/8.5.0"',
  },
  {
    form: "nginx config",
    text: 'location / {\n  auth_basic "restricted";\n  auth_basic_user_file /etc/nginx/.htpasswd;\n  proxy_pass http://127.0.0.1:3000;\n}',
  },
  {
    form: "systemctl status",
    text: "● gitea.service - Gitea\n     Loaded: loaded (/etc/systemd/system/gitea.service; enabled)\n     Active: active (running) since Mon 2024-05-06 10:00:00 UTC; 3h ago\n Invocation: 774589f34b8760afa02aba08eba3b53f\n   Main PID: 812 (gitea)",
  },
  {
    form: "journalctl",
    text: "May 06 10:00:00 gitea gitea[812]: 2024/05/06 10:00:00 ...s/auth/auth.go:42:SignIn() [I] Sign-in succeeded for bob\nMay 06 10:00:01 gitea systemd[1]: Started session 333 of user bob.",
  },
  {
    form: "ps aux",
    text: "root         1  0.0  0.1 167820 11936 ?        Ss   May06   0:05 /sbin/init\npostgres   812  0.0  0.4 215000 32000 ?        Ss   May06   0:01 postgres: 16/main: checkpointer",
  },
  { form: "proc cmdline", text: "/usr/bin/python3\\0/usr/bin/supervisord\\0-n\\0-c\\0/etc/supervisord.conf" },
  {
    form: "df -h",
    text: "Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda1        98G   41G   52G  45% /\ntank/data       3.5T  1.2T  2.3T  35% /tank/data",
  },
  {
    form: "ip addr",
    text: "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500\n    link/ether bc:24:11:41:bf:54 brd ff:ff:ff:ff:ff:ff\n    inet 10.0.0.12/24 brd 10.0.0.255 scope global eth0\n    inet6 fe80::be24:11ff:fe2a:3b4c/64 scope link",
  },
  {
    form: "npm integrity",
    text: '"node_modules/zod": {\n  "version": "4.6.7",\n  "resolved": "https://registry.npmjs.org/zod/-/zod-4.6.7.tgz",\n  "integrity": "sha512-9GPyanO5j6ckLCygdFmb7kkwpugDj7JGyY4pHJ/bbGl74rmFqkyDiWVlo5s1Hh+sXFL/Flalxw6hq0rfEDx23w=="\n}',
  },
  {
    form: "apt hashes",
    text: "Get:1 http://deb.debian.org/debian bookworm/main amd64 curl amd64 7.88.1 [315 kB]\nSHA256: 47d614c342171dd6ea5bdbb08f2197cd72b52d9e58d31d07c683194d713ee87a",
  },
  {
    form: "gpg list keys",
    text: "pub   ed25519 2024-01-01 [SC]\n      3F275266CA17F93EAB43EA5171FC4B6BED22A860\nuid           [ultimate] Bob <bob@example.com>",
  },
  {
    form: "openssl fingerprint",
    text: "SHA256 Fingerprint=B9:17:E2:72:33:F5:2B:D5:35:57:25:57:15:BE:FF:CC:46:82:96:D7:F8:5F:30:80:78:B7:E2:17:CF:46:FE:27",
  },
  {
    form: "tailscale status",
    text: "100.64.0.1   pve          bob@   linux   -\n100.64.0.2   nas          bob@   linux   active; direct 10.0.0.5:41641",
  },
  {
    form: "vault status",
    text: "Key             Value\n---             -----\nSeal Type       shamir\nInitialized     true\nSealed          false\nTotal Shares    5\nThreshold       3\nVersion         1.17.2\nCluster Name    vault-cluster-63f64fb3\nCluster ID      e875f508-aeff-46cd-b178-bbd19701ea40\nHA Enabled      false",
  },
  {
    form: "urls without credentials",
    text: "https://git.lan/app.git\nssh://git@git.lan:2222/infra/ansible.git\nhttps://bob@git.lan/app.git\nmailto:bob@example.com",
  },
  {
    form: "email addresses",
    text: "From: alerts@homelab.example\nTo: bob@example.com, ops+pager@example.com",
  },
  {
    form: "shell positional parameters",
    text: "awk '{print $1, $2}' access.log | sort | uniq -c\necho \"$1 $6\"",
  },
  {
    form: "prose about secrets",
    text: "The password policy allows 12 characters.\nRotate the API token every 90 days.\nYour password has been changed.",
  },
  {
    form: "hex color codes and ids",
    text: "theme: #1a2b3c\nrequest_id=7f3e9a2b1c4d5e6f\ntrace: 00-d2e670ff53df401e44b1a625c70e6cf3-e7317aa9e27597eb-01",
  },
  { form: "container hostnames", text: "6d7def58cc4a:/# hostname\ne39094d0f9d3" },
  {
    form: "zfs list",
    text: "NAME                USED  AVAIL  REFER  MOUNTPOINT\nrpool/data/vm-100-disk-0  32.5G  1.2T  18.1G  -\ntank/backup@autosnap_2024-05-06_00:00:00_daily  0B  -  1.1T  -",
  },
  {
    form: "crontab",
    text: "0 3 * * * /usr/local/bin/backup.sh --keep 7 >> /var/log/backup.log 2>&1\n*/5 * * * * root /usr/bin/check-token-expiry",
  },
  {
    form: "apt sources signed-by",
    text: "deb [signed-by=/usr/share/keyrings/docker.gpg] https://download.docker.com/linux/debian bookworm stable",
  },
  {
    form: "compose healthcheck",
    text: 'healthcheck:\n  test: ["CMD", "pg_isready", "-U", "postgres"]\n  interval: 10s\n  retries: 5',
  },
  {
    form: "uuid in json",
    text: '{"id": "447c812e-52bf-45e4-8732-b4b2cdfd17f6", "type": "vm", "status": "running"}',
  },
  { form: "key value uuid", text: '{"key":"vmgenid","value":"e0b86afd-4c05-4fda-9db6-27c5f77692dd"}' },
  { form: "random words", text: "keyboard monkey turkey bypass compass passenger passport" },
  {
    form: "docker login password-stdin",
    text: 'echo "$REGISTRY_PASSWORD" | docker login --password-stdin -u ci registry.lan',
  },
  {
    form: "ansible ask pass",
    text: "ansible-playbook -i inventory.ini site.yml --ask-pass --ask-become-pass",
  },
  { form: "psql no password", text: "psql --no-password -h db.lan -U gitea -d gitea -c 'select 1'" },
  { form: "curl user without password", text: "curl -u admin https://pve.lan:8006/api2/json/version" },
  { form: "docker run user ids", text: "docker run --rm -u 1000:1000 -v /srv:/srv alpine id" },
  { form: "mysql -p prompt", text: "mysql -u root -p -e 'show databases'" },
  {
    form: "ssh config",
    text: "Host nas\n  HostName 10.0.0.5\n  User backup\n  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes",
  },
  {
    form: "openssl genpkey command",
    text: "openssl genpkey -algorithm ed25519 -out /etc/ssl/private/key.pem && chmod 600 /etc/ssl/private/key.pem",
  },
  {
    form: "systemd credential directive",
    text: "LoadCredential=db_password:/etc/credstore/db_password\nEnvironmentFile=-/etc/default/gitea",
  },
  {
    form: "lsof",
    text: "COMMAND   PID USER   FD   TYPE DEVICE SIZE/OFF    NODE NAME\nsshd     2211 root    3u  IPv4  31337      0t0     TCP 10.0.0.2:22->10.0.0.5:51234 (ESTABLISHED)",
  },
  {
    form: "ansible vault",
    text: "db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          37ecd9e65a274de650525b473a96770fbe938c7928f2c4f571d1da14ddddb9f0\n          575d8ea31062579639d33a98497f02713fdfdb70485623664b588d2bda869f1b",
  },
  {
    form: "mysql user table without hash",
    text: "+------------------+-----------+-----------------------+\n| user             | host      | plugin                |\n+------------------+-----------+-----------------------+\n| root             | localhost | auth_socket           |\n+------------------+-----------+-----------------------+",
  },
  {
    form: "prometheus metrics",
    text: '# HELP process_cpu_seconds_total Total user and system CPU time\nprocess_cpu_seconds_total 12.5\nhttp_requests_total{code="401",handler="/api/auth"} 3',
  },
  {
    form: "zpool status",
    text: "  pool: tank\n state: ONLINE\n  scan: scrub repaired 0B in 02:11:05 with 0 errors\nconfig:\n\tNAME                        STATE     READ WRITE CKSUM\n\ttank                        ONLINE       0     0     0\n\t  ata-WDC_WD40EFRX-68N32N0_WD-58LXW2Q02AA5  ONLINE       0     0     0",
  },
  {
    form: "free -m",
    text: "               total        used        free      shared  buff/cache   available\nMem:           15923        4210        8123         123        3590       11402",
  },
  { form: "uptime", text: " 10:30:00 up 3 days,  4:12,  2 users,  load average: 0.12, 0.08, 0.05" },
  {
    form: "smartctl serial",
    text: "Serial Number:    WD-QPJE2LSE91YK\nLU WWN Device Id: 5 0014ee f7f810811",
  },
  {
    form: "sha256 image ids in pvesm",
    text: "local:iso/debian-12.5.0-amd64-netinst.iso  iso  658505728\nlocal:vztmpl/debian-12-standard_12.2-1_amd64.tar.zst  vztmpl  126129827",
  },
  // oikos's own advice, which the log redactor once turned into [REDACTED] (issue 36).
  {
    form: "oikos advice: Slack bot token",
    text: "slack refused oikos (token_revoked): Slack refused the bot token: check SLACK_BOT_TOKEN (reinstall the app to get a new one).",
  },
  {
    form: "oikos advice: Slack app token",
    text: "Slack refused the app-level token: check SLACK_APP_TOKEN (xapp-…, scope connections:write) and that Socket Mode is on in the app's settings.",
  },
  {
    form: "oikos advice: Matrix credentials",
    text: "The homeserver rejects the bot's credentials: check MATRIX_ACCESS_TOKEN (a token from a logout or a deactivated account no longer works).",
  },
  {
    form: "oikos advice: configuration table",
    text: "| MATRIX_PASSWORD | (unset) | Bot password: logs in at start, logs out at stop (no token stored) (secret: never logged) |",
  },
  {
    form: "oikos advice: MCP bearer",
    text: "Authorization: Bearer <token> is required (OIKOS_MCP_TOKEN or one of mcp.tokens).",
  },
  {
    form: "oikos advice: sudo",
    text: "sudo -n never asks for a password: without a rule that lets the login run it, sudo fails and nothing runs.",
  },
];
