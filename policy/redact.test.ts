import assert from "node:assert/strict";
import { test } from "node:test";
import { REDACTED, redact, redactObject } from "./redact.ts";

const SECRET_CASES: readonly (readonly [string, string])[] = [
  ["Authorization: Bearer abcdef1234567890", "abcdef1234567890"],
  ["curl -H 'Authorization: Basic dXNlcjpwYXNz' http://x", "dXNlcjpwYXNz"],
  ["token was Bearer eyJhbGciOiJIUzI1NiJ9.payload", "eyJhbGciOiJIUzI1NiJ9.payload"],
  ["password=hunter22", "hunter22"],
  ["DB_PASSWORD: s3cr3t!", "s3cr3t!"],
  ["PASSWORD: hunter2", "hunter2"],
  ['{"password": "p@ss word"}', "p@ss word"],
  ["export API_KEY='abc123def456'", "abc123def456"],
  [
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  ],
  ["key id AKIAIOSFODNN7EXAMPLE in use", "AKIAIOSFODNN7EXAMPLE"],
  ["git clone https://deploy:glpat-xyz123@git.lan/app.git", "glpat-xyz123"],
  ["postgres://oikos:verysecret@db:5432/oikos", "verysecret"],
  ["GITHUB_TOKEN ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
  ["slack xoxb-1234567890-abcdefghijkl", "xoxb-1234567890-abcdefghijkl"],
  ["app token xapp-1-A0123456789-abcdef", "xapp-1-A0123456789-abcdef"],
  ["matrix syt_b2lrb3M_AbCdEfGhIjKlMnOp_1a2b3c", "syt_b2lrb3M_AbCdEfGhIjKlMnOp_1a2b3c"],
  ["OPENAI key sk-proj-abcdefghijklmnopqrstuvwx", "sk-proj-abcdefghijklmnopqrstuvwx"],
  ["plain sk-abcdefghijklmnopqrstuvwxyz123456", "sk-abcdefghijklmnopqrstuvwxyz123456"],
  ["mysql -u root -pTopSecret -e 'show databases'", "TopSecret"],
  ["restic --password hunter2 backup", "hunter2"],
  ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpM", "SflKxwRJSMeKKF2QT4fwpM"],
  // review 2026-11-30: command-line and config secrets
  ["curl -u admin:Hunter22x https://pve:8006/api2/json", "Hunter22x"],
  ["curl -s --user admin:Hunter22x https://x", "Hunter22x"],
  ["curl -uadmin:Hunter22x https://x", "Hunter22x"],
  ["curl --user='admin:pa ss' https://x", "pa ss"],
  ["redis-cli -h 10.0.0.2 -a Hunter22x ping", "Hunter22x"],
  ["redis-cli --pass Hunter22x info", "Hunter22x"],
  ["REDISCLI_AUTH=Hunter22x redis-cli ping", "Hunter22x"],
  ["docker login -u bob -p Hunter22x registry.lan", "Hunter22x"],
  ["docker login --password Hunter22x registry.lan", "Hunter22x"],
  ["docker login --password=Hunter22x registry.lan", "Hunter22x"],
  ["podman login -p Hunter22x quay.io", "Hunter22x"],
  ["smbclient //nas/share -U bob%Hunter22x -c ls", "Hunter22x"],
  ["smbclient -L nas --user=bob%Hunter22x", "Hunter22x"],
  ["curl -b PVEAuthCookie=PVE:root@pam:65F1A2B3::c2lnbmF0dXJl https://pve:8006", "c2lnbmF0dXJl"],
  ["Cookie: PVEAuthCookie=PVE:root@pam:65F1A2B3::c2lnbmF0dXJl", "c2lnbmF0dXJl"],
  [
    "rclone config create b2 s3 provider Other access_key_id 0051a2b3c4d5e6f secret_access_key K005abcSecretValue",
    "K005abcSecretValue",
  ],
  [
    "rclone config create b2 s3 provider Other access_key_id 0051a2b3c4d5e6f secret_access_key K005abcSecretValue",
    "0051a2b3c4d5e6f",
  ],
  ["rclone config create nas sftp host nas user bob pass Hunter22x", "Hunter22x"],
  ["[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n", "yAnz5TF+lXXJte14tji3zlMNq"],
  [
    "[Peer]\nPresharedKey = /UwcSPg38hW/D9Y3tcS1FOV0K1wuURMbS0sesJEP5ak=\n",
    "/UwcSPg38hW/D9Y3tcS1FOV0K1wuURMbS0sesJEP5ak",
  ],
  ["mysql --password=Hunter22x -u root", "Hunter22x"],
  ["mysql --password Hunter22x -u root", "Hunter22x"],
  ["PGPASSWORD=Hunter22x psql -h db -U oikos", "Hunter22x"],
  ["redis-cli -u redis://:Hunter22x@10.0.0.2:6379 ping", "Hunter22x"],
  ['{"data":{"ticket":"PVE:root@pam:65F1A2B3::c2lnbmF0dXJlc2lnbmF0dXJl"}}', "c2lnbmF0dXJlc2lnbmF0dXJl"],
  ["[nas]\ntype = sftp\nuser = bob\npass = ObScUrEdPaSs123\n", "ObScUrEdPaSs123"],
  ["mysqladmin -u root -pHunter22x status", "Hunter22x"],
  ["export PGPASSWORD='Hunter22x'", "Hunter22x"],
];

for (const [text, secret] of SECRET_CASES) {
  test(`redact removes the secret from ${JSON.stringify(text.slice(0, 40))}`, () => {
    const out = redact(text);
    assert.ok(!out.includes(secret), out);
    assert.ok(out.includes(REDACTED), out);
  });
}

test("redact removes the body and END line of a private key whose BEGIN line was cut off", () => {
  const body = Array.from(
    { length: 6 },
    (_, i) => `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB${i}`,
  );
  const capped = `head\n[… 9000 bytes omitted, 12000 bytes in total …]\nQyNTUxOQAAACD${body.join("\n")}\n-----END OPENSSH PRIVATE KEY-----\ndone\n`;
  const out = redact(capped);
  assert.doesNotMatch(out, /b3BlbnNz|QyNTUxOQ|END OPENSSH/, out);
  assert.match(out, /^head\n\[… 9000 bytes omitted, 12000 bytes in total …\]\n\[REDACTED\]\ndone\n$/);
  const start = `${body.join("\n")}\n-----END RSA PRIVATE KEY-----`;
  assert.equal(redact(start), REDACTED);
});

test("a long base64 run without a key end is left alone, in linear time", () => {
  const blob = "QUJD".repeat(200_000);
  assert.equal(redact(blob), blob);
  assert.equal(redact("see -----END CERTIFICATE-----"), "see -----END CERTIFICATE-----");
});

test("redact removes a whole PEM private key block", () => {
  const pem =
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----";
  const out = redact(`key:\n${pem}\nafter`);
  assert.equal(out, `key:\n${REDACTED}\nafter`);
});

test("redact keeps ordinary text and token counts", () => {
  for (const text of [
    "systemctl status nginx",
    "prompt_tokens: 1234, completion_tokens: 56",
    "df -h shows 42% used on /srv",
    "https://git.lan/app.git",
    "the password policy allows 12 characters",
    "docker run -u 1000:1000 alpine id",
    "psql -U postgres -h db",
    "echo $PW | docker login --password-stdin -u bob registry.lan",
    "redis-cli -h 10.0.0.2 ping",
    "curl -u admin https://x",
    "wg set wg0 listen-port 51820",
    "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
  ]) {
    assert.equal(redact(text), text);
  }
});

test("redactObject redacts secret-named keys and strings deeply, keeps the rest", () => {
  const input = {
    user: "bob",
    password: "hunter2",
    nested: { apiKey: "abc", note: "Authorization: Bearer abcdefghijk123", count: 3 },
    list: ["ok", "password=x1"],
    usage: { prompt_tokens: 10 },
  };
  const out = redactObject(input);
  assert.deepEqual(out, {
    user: "bob",
    password: REDACTED,
    nested: { apiKey: REDACTED, note: `Authorization: Bearer ${REDACTED}`, count: 3 },
    list: ["ok", `password=${REDACTED}`],
    usage: { prompt_tokens: 10 },
  });
  assert.equal(input.password, "hunter2", "the input is not modified");
});

test("redactObject survives cycles and errors", () => {
  const a: Record<string, unknown> = { name: "a" };
  a.self = a;
  assert.deepEqual(redactObject(a), { name: "a", self: "[Circular]" });
  const error = redactObject({ error: new Error("login failed password=abc") }) as {
    error: { message: string };
  };
  assert.equal(error.error.message, `login failed password=${REDACTED}`);
});
