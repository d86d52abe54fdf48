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
