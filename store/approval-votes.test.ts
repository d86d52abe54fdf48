import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { votersOf } from "./approval-votes.ts";
import { createExecutionApproval, getApproval } from "./approvals.ts";
import { approvePlan, decideApproval } from "./consent.ts";
import { createExecution, getExecution } from "./executions.ts";

const QUORUM = { quorum: { required: 2, separateRequester: true, approvers: null }, requester: "alice" };

for (const { dialect, skip } of availableDialects()) {
  describe(`quorum votes on ${dialect}`, { skip }, () => {
    let store: TestStore;
    let n = 0;
    const db = () => store.db;

    before(async () => {
      store = await createTestStore(dialect);
      await db()
        .insertInto("sessions")
        .values({
          id: "s-1",
          platform: "shell",
          room: "terminal",
          thread: "t",
          created_by: "alice",
          plan_generation: 1,
        })
        .execute();
      await db().insertInto("plans").values({ session_id: "s-1", generation: 1 }).execute();
    });
    after(() => store.dispose());

    async function asked() {
      const expiresAt = new Date(Date.now() + 60_000);
      const execution = await createExecution(db(), {
        sessionId: "s-1",
        target: "host:nas",
        command: `zfs set quota=${++n}T tank`,
        commandKey: `k${n}`,
        risk: "config_mutation",
        purpose: "p",
        requestedBy: "agent",
        status: "pending_approval",
        timeoutMs: 5_000,
        deadlineAt: expiresAt,
      });
      const created = await createExecutionApproval(db(), {
        sessionId: "s-1",
        executionId: execution.id,
        commandKey: `k${n}`,
        target: "host:nas",
        risk: "config_mutation",
        expiresAt,
      });
      assert.ok(created.created);
      return { executionId: execution.id, approvalId: created.approval.id };
    }
    const approve = (approvalId: string, by: string) =>
      decideApproval(db(), {
        approvalId,
        sessionId: "s-1",
        decision: "approved",
        by,
        via: "reaction",
        quorum: QUORUM,
      });

    test("two distinct people approve; the requester's vote alone and a repeated vote do not", async () => {
      const { approvalId, executionId } = await asked();
      const first = await approve(approvalId, "alice");
      assert.ok(first.ok);
      assert.equal((await getApproval(db(), approvalId))?.status, "pending");
      const again = await approve(approvalId, "alice");
      assert.ok(!again.ok && again.code === "already_voted");
      const second = await approve(approvalId, "bob");
      assert.ok(second.ok);
      assert.equal((await getApproval(db(), approvalId))?.status, "approved");
      assert.equal((await getExecution(db(), executionId))?.status, "queued");
      assert.deepEqual(await votersOf(db(), approvalId), ["alice", "bob"]);
      const audit = await db()
        .selectFrom("audit_log")
        .select("actor")
        .where("action", "=", "approval.vote")
        .execute();
      assert.deepEqual(audit.map((a) => a.actor).sort(), ["alice", "bob"]);
    });

    test("a plan's approval leaves a pending change that needs a quorum pending", async () => {
      const { approvalId } = await asked();
      const result = await approvePlan(db(), {
        sessionId: "s-1",
        generation: 1,
        by: "alice",
        via: "reaction",
        leavePendingApproval: true,
      });
      assert.ok(result.ok);
      assert.equal((await getApproval(db(), approvalId))?.status, "pending");
    });
  });
}
