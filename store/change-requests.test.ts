import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { systemPrompt } from "../agent/prompt.ts";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { createExecutionApproval, getApproval } from "./approvals.ts";
import { requestExecutionChanges, requestPlanChanges } from "./change-requests.ts";
import { createExecution, getExecution } from "./executions.ts";
import { currentPlan } from "./plans.ts";
import { getSession } from "./sessions.ts";
import { hasOpenWindow, openWindow } from "./windows.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`request changes on ${dialect}`, { skip }, () => {
    let store: TestStore;
    const db = () => store.db;

    before(async () => {
      store = await createTestStore(dialect);
      for (const id of ["s-plan", "s-exec"]) {
        await db()
          .insertInto("sessions")
          .values({ id, platform: "shell", room: "r", thread: id, created_by: "alice", plan_generation: 1 })
          .execute();
      }
      await db()
        .insertInto("plans")
        .values({ session_id: "s-plan", generation: 1, status: "proposed" })
        .execute();
      await db()
        .insertInto("plans")
        .values({ session_id: "s-exec", generation: 1, status: "approved" })
        .execute();
      await openWindow(db(), {
        sessionId: "s-exec",
        kind: "assent",
        openedBy: "bob",
        channel: "reaction",
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    });
    after(() => store.dispose());

    test("a proposed plan is sent back with the reason; the agent's prompt carries it", async () => {
      const result = await requestPlanChanges(db(), {
        sessionId: "s-plan",
        generation: 1,
        by: "bob",
        via: "phrase",
        reason: "restart only the bridge, not the container",
      });
      assert.ok(result.ok);
      assert.ok(result.followUps.some((f) => f.kind === "enqueue" && f.queue === "agent-turn"));
      const plan = await currentPlan(db(), "s-plan");
      assert.equal(plan?.plan.status, "denied", "the old plan never runs");
      assert.equal(plan?.plan.changesRequested?.reason, "restart only the bridge, not the container");
      assert.equal(plan?.plan.changesRequested?.by, "bob");
      const session = await getSession(db(), "s-plan");
      assert.ok(session);
      const prompt = await systemPrompt(db(), "SOUL", session, new Date());
      assert.match(
        prompt,
        /Changes requested by bob on plan 1: "restart only the bridge, not the container"/,
      );
      assert.match(prompt, /propose a revised plan/);
      const again = await requestPlanChanges(db(), {
        sessionId: "s-plan",
        generation: 1,
        by: "bob",
        via: "phrase",
        reason: "twice",
      });
      assert.ok(!again.ok && again.code === "already_decided");
      const audit = await db()
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "plan.changes_requested")
        .execute();
      assert.equal(audit.length, 1);
    });

    test("an approval is sent back: it and its execution denied with the reason, the plan too, its window closed", async () => {
      const expiresAt = new Date(Date.now() + 60_000);
      const execution = await createExecution(db(), {
        sessionId: "s-exec",
        target: "lxc:bridges",
        command: "pct reboot 105",
        commandKey: "k",
        risk: "config_mutation",
        purpose: "the bridge hangs",
        requestedBy: "agent",
        status: "pending_approval",
        timeoutMs: 5_000,
        deadlineAt: expiresAt,
        planGeneration: 1,
      });
      const created = await createExecutionApproval(db(), {
        sessionId: "s-exec",
        executionId: execution.id,
        commandKey: "k",
        target: "lxc:bridges",
        risk: "config_mutation",
        expiresAt,
      });
      assert.ok(created.created);
      const other = await requestExecutionChanges(db(), {
        approvalId: created.approval.id,
        sessionId: "s-plan",
        by: "bob",
        via: "phrase",
        reason: "x y z",
      });
      assert.ok(!other.ok && other.code === "not_found", "another session's thread cannot send it back");
      const result = await requestExecutionChanges(db(), {
        approvalId: created.approval.id,
        sessionId: "s-exec",
        by: "bob",
        via: "phrase",
        reason: "restart the service, not the container",
      });
      assert.ok(result.ok);
      const approval = await getApproval(db(), created.approval.id);
      assert.equal(approval?.status, "denied");
      assert.equal(approval?.changes_requested?.reason, "restart the service, not the container");
      const denied = await getExecution(db(), execution.id);
      assert.equal(denied?.status, "denied");
      assert.equal(denied?.status_reason, "changes requested by bob: restart the service, not the container");
      const plan = await currentPlan(db(), "s-exec");
      assert.equal(plan?.plan.status, "denied");
      assert.equal(plan?.plan.changesRequested?.reason, "restart the service, not the container");
      assert.equal(await hasOpenWindow(db(), { sessionId: "s-exec", kind: "assent" }), false);
      const types = result.followUps.flatMap((f) => (f.kind === "publish" ? [f.event.type] : [f.queue]));
      assert.deepEqual(types, ["approval.decided", "execution.finished", "plan.decided", "agent-turn"]);
    });
  });
}
