import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { createTestDatabase } from "../test-support/store.ts";
import { runDemo } from "./run-demo.ts";

// `oikos demo` with a person at the terminal who denies the plan: the recorded research runs, the
// plan card waits for them, their -1 is taken as theirs, and nothing changes on the simulated host.
// (The approving path, given on the person's behalf in pipe mode, is walked by
// scripts/readme-walkthrough.test.ts through the CLI.)
test("the person at the terminal decides the plan: -1 denies it and nothing changes", async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let transcript = "";
  stdout.on("data", (chunk: Buffer) => {
    transcript += chunk.toString();
    if (transcript.includes("Approve the plan?") && !stdin.writableEnded) stdin.end("-1\n");
  });
  // With DATABASE_URL an empty Postgres database of its own starts faster than the embedded one.
  const database = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
  const result = await runDemo(
    { stdin, stdout, stderr: new PassThrough() },
    { approver: "person", ...(database ? { databaseUrl: database.url } : {}) },
  ).finally(() => database?.dispose());
  assert.equal(result.code, 0, transcript);
  assert.deepEqual(result.end, { kind: "denied" });
  assert.equal(result.world.image, "v0.10.1", "the pull never ran");
  assert.equal(result.world.bridge, "broken");
  assert.match(transcript, /you> -1/);
  assert.match(transcript, /❌ denied by operator/);
  assert.match(transcript, /compose\.yml logs --tail=50 {3}\(read-only, ran with nobody asked; exit 0\)/);
  assert.doesNotMatch(transcript, /compose\.yml pull/);
  assert.match(transcript, /You denied the plan, so nothing changed on the host/);
});
