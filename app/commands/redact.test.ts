import assert from "node:assert/strict";
import { test } from "node:test";
import { runCli } from "../../test-support/run-cli.ts";

test("oikos redact cleans stdin onto stdout and --report names the rules on stderr", async () => {
  const input = [
    "May 06 10:00:00 gitea gitea[812]: started",
    "DATABASE_URL=postgres://gitea:p@ss/w0rd@db.lan:5432/gitea",
    "export GITLAB_TOKEN=glpat-Xy9ZkQ2mN4pR6sT8vW0a",
    "requirepass foobaredRedis42",
    "nothing secret here",
    "",
  ].join("\n");
  const { code, stdout, stderr } = await runCli(["redact", "--report"], { stdin: input });
  assert.equal(code, 0, stderr);
  for (const secret of ["p@ss/w0rd", "glpat-Xy9ZkQ2mN4pR6sT8vW0a", "foobaredRedis42"]) {
    assert.ok(!stdout.includes(secret), stdout);
  }
  assert.match(stdout, /^May 06 10:00:00 gitea gitea\[812\]: started\n/);
  assert.match(stdout, /nothing secret here\n$/);
  assert.match(stderr, /^oikos redact: \d+ secrets redacted\n/);
  assert.match(stderr, /url-credentials/);
  assert.match(stderr, /redis-password/);
});

test("oikos redact leaves clean text byte for byte and says so with --report", async () => {
  const input = "df -h\nFilesystem Size Used\n/dev/sda1 98G 41G\n";
  const quiet = await runCli(["redact"], { stdin: input });
  assert.equal(quiet.code, 0);
  assert.equal(quiet.stdout, input);
  assert.equal(quiet.stderr, "");
  const reported = await runCli(["redact", "--report"], { stdin: input });
  assert.equal(reported.stderr, "oikos redact: no secrets found\n");
});

test("oikos redact refuses an unknown option with its usage", async () => {
  const { code, stderr } = await runCli(["redact", "--bogus"]);
  assert.equal(code, 2);
  assert.match(stderr, /oikos redact \[--report\]/);
});
