import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { createExecution, type NewExecution } from "./executions.ts";
import { insertPlanGeneration } from "./plans.ts";
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
    const db = () => store.db;

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
          again.refusal.code === "already_complete" &&
          /Do not call complete_task again/.test(again.refusal.next_step),
      );
      const missing = await completeSessionTask(store.db, "no-such-session", {
        outcome: "partial",
        summary: "x",
      });
      assert.ok(!missing.ok && missing.refusal.code === "unknown_session");
    });

    test("success needs evidence: every mutating execution of the plan expired or failed → refused with the next step", async () => {
      const { id } = await createSession(store.db, {
        platform: "test",
        room: "r",
        thread: randomUUID(),
        createdBy: "op",
        goal: "Restart the bridge",
      });
      const now = new Date();
      const { generation } = await db()
        .transaction()
        .execute((tx) =>
          insertPlanGeneration(
            tx,
            id,
            [
              { title: "Check the bridge status", risk: "read_only" },
              { title: "Restart the bridge", risk: "config_mutation", target: "lxc:bridge" },
              { title: "Rotate its log", target: "lxc:bridge" },
            ],
            { needsApproval: true, now },
          ),
        );
      await db()
        .updateTable("sessions")
        .set({ plan_generation: generation, entity_writeback: true })
        .where("id", "=", id)
        .execute();
      const execution = (stepSeq: number, status: NewExecution["status"]) => ({
        sessionId: id,
        planGeneration: generation,
        stepSeq,
        target: "lxc:bridge",
        command: `systemctl restart bridge-${stepSeq}`,
        commandKey: `k-${stepSeq}-${randomUUID()}`,
        risk: "config_mutation" as const,
        purpose: "test",
        requestedBy: "agent",
        status,
        timeoutMs: 60_000,
        deadlineAt: now,
      });
      const first = await createExecution(db(), execution(2, "pending_approval"));
      const second = await createExecution(db(), execution(3, "pending_approval"));
      await db().updateTable("executions").set({ status: "expired" }).where("id", "=", first.id).execute();
      await db().updateTable("executions").set({ status: "failed" }).where("id", "=", second.id).execute();

      const refused = await completeSessionTask(db(), id, { outcome: "success", summary: "restarted" });
      assert.ok(!refused.ok, "refused");
      assert.equal(refused.refusal.code, "no_evidence");
      assert.match(refused.refusal.reason, new RegExp(`${first.id} expired, ${second.id} failed`));
      assert.match(
        refused.refusal.next_step,
        /propose the plan again .* or call complete_task with outcome partial or failure/i,
      );

      await db().updateTable("executions").set({ status: "completed" }).where("id", "=", second.id).execute();
      const done = await completeSessionTask(db(), id, { outcome: "success", summary: "restarted" });
      assert.ok(done.ok, done.ok ? "" : done.refusal.reason);
    });

    test("a plan whose mutating steps never ran may still close as partial", async () => {
      const { id } = await createSession(store.db, {
        platform: "test",
        room: "r",
        thread: randomUUID(),
        createdBy: "op",
        goal: "Upgrade",
      });
      const { generation } = await db()
        .transaction()
        .execute((tx) =>
          insertPlanGeneration(tx, id, [{ title: "apt upgrade", risk: "config_mutation" }], {
            needsApproval: true,
            now: new Date(),
          }),
        );
      await db().updateTable("sessions").set({ plan_generation: generation }).where("id", "=", id).execute();
      const success = await completeSessionTask(db(), id, { outcome: "success", summary: "done" });
      assert.ok(
        !success.ok &&
          success.refusal.code === "no_evidence" &&
          /no mutating command of it ran/.test(success.refusal.reason),
      );
      const partial = await completeSessionTask(db(), id, { outcome: "partial", summary: "not run" });
      assert.ok(partial.ok);
    });
  });
}
