import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { createSession } from "./sessions.ts";
import { completeSessionTask } from "./task-completion.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`completeSessionTask on ${dialect}`, { skip }, () => {
    let store: TestStore;
    before(async () => {
      store = await createTestStore(dialect);
    });
    after(async () => {
      await store.dispose();
    });

    test("closes once, returns the events to publish, then refuses with a code and the next action", async () => {
      const { id } = await createSession(store.db, {
        platform: "test",
        room: "r",
        thread: randomUUID(),
        createdBy: "op",
        goal: "Check disk usage",
      });
      const at = new Date("2026-01-02T03:04:05Z");
      const done = await completeSessionTask(
        store.db,
        id,
        { outcome: "maybe", summary: "looked" },
        { now: at },
      );
      assert.ok(done.ok);
      assert.equal(done.outcome, "partial");
      assert.match(done.outcomeNote ?? "", /"maybe" is not one of/);
      assert.deepEqual(done.events, [{ type: "task.completed", sessionId: id, outcome: "partial" }]);
      const row = await store.db
        .selectFrom("sessions")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      assert.equal(row.status, "done");
      assert.equal(row.closed_at?.toISOString(), at.toISOString());

      const again = await completeSessionTask(store.db, id, { outcome: "success", summary: "again" });
      assert.equal(again.ok, false);
      assert.ok(
        !again.ok &&
          again.code === "already_complete" &&
          /Do not call complete_task again/.test(again.message),
      );
      const missing = await completeSessionTask(store.db, "no-such-session", {
        outcome: "partial",
        summary: "x",
      });
      assert.ok(!missing.ok && missing.code === "missing");
    });
  });
}
