import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { createLogger } from "./logger.ts";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

test("secrets never reach a log line: fields, free text, nested strings and errors", () => {
  const { lines, stream } = capture();
  const logger = createLogger({ log: { level: "info" } }, "test", stream);
  logger.info(
    { apiKey: "sk-live-abcdefghijklmnopqrstuv", headers: { authorization: "Bearer abcdefghijklmnop" } },
    "calling model",
  );
  logger.info("connecting to postgres://oikos:hunter2secret@db:5432/oikos");
  logger.error({ err: new Error("auth failed for token xoxb-1234567890-abcdefghij") }, "slack down");
  logger.info({ command: "curl -H 'Authorization: Bearer qwertyuiopasdfgh' https://x" }, "ran");
  const out = lines.join("");
  for (const secret of [
    "sk-live-abcdefghijklmnopqrstuv",
    "abcdefghijklmnop",
    "hunter2secret",
    "xoxb-1234567890-abcdefghij",
    "qwertyuiopasdfgh",
  ]) {
    assert.ok(!out.includes(secret), `log leaked ${secret}: ${out}`);
  }
  assert.match(out, /\[REDACTED\]/);
  assert.match(out, /calling model/);
  assert.equal(lines.length, 4);
});

test("an OikosError logs its code and detailed log message, redacted", async () => {
  const { OikosError } = await import("../base/errors.ts");
  const { lines, stream } = capture();
  const logger = createLogger({ log: { level: "info" } }, "test", stream);
  const error = new OikosError("ssh_auth_failed", "Could not log in to host:hubris.", {
    logMessage: "publickey refused for root@10.0.0.5 (key sk-abcdefghijklmnopqrstuvwx)",
  });
  logger.error({ err: error }, "run failed");
  const entry = JSON.parse(lines[0]!) as { err: { code: string; logMessage: string; message: string } };
  assert.equal(entry.err.code, "ssh_auth_failed");
  assert.match(entry.err.logMessage, /publickey refused for root@10\.0\.0\.5/);
  assert.ok(!lines[0]!.includes("sk-abcdefghijklmnopqrstuvwx"));
});
