import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createTestStore, type TestStore } from "../../test-support/store.ts";
import { dumpFinalState } from "./state-dump.ts";

describe("failure dump", () => {
  let store: TestStore;
  let dir: string;
  before(async () => {
    store = await createTestStore();
    dir = await mkdtemp(join(tmpdir(), "oikos-eval-out-"));
    process.env.OIKOS_EVAL_OUT = dir;
  });
  after(async () => {
    delete process.env.OIKOS_EVAL_OUT;
    await store?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  test("writes the final state of a failed scenario next to the scoreboard, one file per scenario", async () => {
    const file = await dumpFinalState("probe-scenario", store.db, ["a post"], undefined, [
      "something failed",
    ]);
    assert.equal(file, join(dir, "probe-scenario.failure.json"));
    const state = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    assert.deepEqual(state.failures, ["something failed"]);
    assert.deepEqual(state.posts, ["a post"]);
    for (const key of ["executions", "approvals", "audit_log", "messages", "model_requests", "sessions"])
      assert.ok(Array.isArray(state[key]), `${key} is in the dump`);
  });
});
