import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { createExecutionApproval, expireApprovals, getApproval } from "./approvals.ts";
import { approvePlan, cancelPendingExecution, decideApproval, denyPlan } from "./consent.ts";
import { createExecution, getExecution } from "./executions.ts";
import type { RunnableRisk } from "./statuses.ts";
import { hasOpenWindow } from "./windows.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`consent decisions on ${dialect}`, { skip }, () => {
    let store: TestStore;
    let counter = 0;

    before(async () => {
      store = await createTestStore(dialect);
      for (const id of ["s-a", "s-b", "s-c", "s-d", "s-e"]) {
        await store.db
          .insertInto("sessions")
          .values({ id, platform: "shell", room: "r", thread: id, created_by: "op" })
          .execute();
      }
    });
    after(() => store.dispose());

    async function gated(
      sessionId: string,
      risk: RunnableRisk,
      options: { expiresInMs?: number; phrase?: string } = {},
    ) {
      const expiresAt = new Date(Date.now() + (options.expiresInMs ?? 60_000));
      const execution = await createExecution(store.db, {
        sessionId,
        target: "lxc:web",
        command: `cmd ${++counter}`,
        commandKey: `key-${counter}`,
        risk,
        purpose: "test",
        requestedBy: "agent",
        status: "pending_approval",
        timeoutMs: 5_000,
        deadlineAt: expiresAt,
      });
      const approval = await createExecutionApproval(store.db, {
        sessionId,
        executionId: execution.id,
        commandKey: execution.command_key,
        target: execution.target,
        risk,
        requiredPhrase: options.phrase ?? null,
        expiresAt,
      });
      assert.ok(approval.created);
      return { execution, approval: approval.approval };
    }

    test("approving a plan opens only that session's assent window", async () => {
      for (const id of ["s-a", "s-b"]) {
        await store.db.insertInto("plans").values({ session_id: id, generation: 1 }).execute();
      }
      const result = await approvePlan(store.db, {
        sessionId: "s-a",
        generation: 1,
        by: "op",
        via: "reaction",
      });
      assert.equal(result.ok, true);
      assert.equal(await hasOpenWindow(store.db, { sessionId: "s-a", kind: "assent" }), true);
      assert.equal(await hasOpenWindow(store.db, { sessionId: "s-b", kind: "assent" }), false);
      const again = await approvePlan(store.db, {
        sessionId: "s-a",
        generation: 1,
        by: "op",
        via: "reaction",
      });
      assert.equal(!again.ok && again.code, "already_decided");
      const denied = await denyPlan(store.db, { sessionId: "s-b", generation: 1, by: "op", via: "button" });
      assert.equal(denied.ok, true);
      assert.equal(await hasOpenWindow(store.db, { sessionId: "s-b", kind: "assent" }), false);
    });

    test("approving the plan also approves the session's pending config_mutation, not destructive", async () => {
      await store.db.insertInto("plans").values({ session_id: "s-c", generation: 1 }).execute();
      const { execution } = await gated("s-c", "config_mutation");
      const result = await approvePlan(store.db, {
        sessionId: "s-c",
        generation: 1,
        by: "op",
        via: "button",
      });
      assert.ok(result.ok);
      assert.equal((await getExecution(store.db, execution.id))?.status, "queued");
      assert.ok(
        result.followUps.some(
          (f) => f.kind === "enqueue" && f.queue === "execute" && f.data.executionId === execution.id,
        ),
      );
    });

    test("decideApproval refuses other-session, then approves, then refuses already-decided", async () => {
      const { execution, approval } = await gated("s-d", "config_mutation");
      const other = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-e",
        decision: "approved",
        by: "op",
        via: "button",
      });
      assert.equal(!other.ok && other.code, "other_session");
      assert.equal((await getExecution(store.db, execution.id))?.status, "pending_approval");
      const ok = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-d",
        decision: "approved",
        by: "op",
        via: "button",
      });
      assert.equal(ok.ok, true);
      assert.equal((await getExecution(store.db, execution.id))?.status, "queued");
      const twice = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-d",
        decision: "denied",
        by: "op2",
        via: "button",
      });
      assert.equal(!twice.ok && twice.code, "already_decided");
      assert.equal((await getExecution(store.db, execution.id))?.status, "queued");
    });

    test("decideApproval on an expired approval refuses and expires the execution", async () => {
      const { execution, approval } = await gated("s-e", "config_mutation", { expiresInMs: 1_000 });
      const result = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-e",
        decision: "approved",
        by: "op",
        via: "reaction",
        now: new Date(Date.now() + 5_000),
      });
      assert.equal(!result.ok && result.code, "expired");
      assert.equal((await getExecution(store.db, execution.id))?.status, "expired");
      assert.equal((await getApproval(store.db, approval.id))?.status, "expired");
    });

    test("a decision on an approval the sweep already expired is `expired`, not `already_decided`", async () => {
      const { approval } = await gated("s-e", "config_mutation", { expiresInMs: 1_000 });
      const later = new Date(Date.now() + 5_000);
      assert.equal((await expireApprovals(store.db, later)).length >= 1, true);
      const result = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-e",
        decision: "approved",
        by: "op",
        via: "reaction",
        now: later,
      });
      assert.equal(!result.ok && result.code, "expired");
      assert.match(!result.ok ? result.message : "", /expired at .*nothing ran.*say so in this thread/);
    });

    test("destructive approval needs the typed phrase and opens a window for that target only", async () => {
      const { execution, approval } = await gated("s-e", "destructive", { phrase: "destroy lxc:web" });
      const byButton = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-e",
        decision: "approved",
        by: "op",
        via: "button",
      });
      assert.equal(!byButton.ok && byButton.code, "typed_confirmation_required");
      const typed = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-e",
        decision: "approved",
        by: "op",
        via: "phrase",
        typedPhrase: "  Destroy   lxc:web ",
      });
      assert.equal(typed.ok, true);
      assert.equal((await getExecution(store.db, execution.id))?.status, "queued");
      assert.equal(
        await hasOpenWindow(store.db, { sessionId: "s-e", kind: "destructive", target: "lxc:web" }),
        true,
      );
      assert.equal(
        await hasOpenWindow(store.db, { sessionId: "s-d", kind: "destructive", target: "lxc:web" }),
        false,
      );
      assert.equal(
        await hasOpenWindow(store.db, { sessionId: "s-e", kind: "destructive", target: "lxc:db" }),
        false,
      );
    });

    test("denial ends the execution as denied", async () => {
      const { execution, approval } = await gated("s-a", "config_mutation");
      const result = await decideApproval(store.db, {
        approvalId: approval.id,
        sessionId: "s-a",
        decision: "denied",
        by: "op",
        via: "slash",
      });
      assert.ok(result.ok);
      assert.equal((await getExecution(store.db, execution.id))?.status, "denied");
      assert.ok(result.followUps.some((f) => f.kind === "publish" && f.event.type === "execution.finished"));
    });

    test("cancelling a pending execution cancels its approval", async () => {
      const { execution, approval } = await gated("s-b", "config_mutation");
      assert.equal(await cancelPendingExecution(store.db, execution.id, "op"), true);
      assert.equal(await cancelPendingExecution(store.db, execution.id, "op"), false);
      assert.equal((await getApproval(store.db, approval.id))?.status, "cancelled");
    });
  });
}
