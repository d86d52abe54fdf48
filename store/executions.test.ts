import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { createExecutionApproval } from "./approvals.ts";
import {
  claimExecution,
  countFailuresOfKey,
  createExecution,
  findStaleExecutions,
  heartbeatExecution,
  requestCancel,
  transitionExecution,
} from "./executions.ts";
import { closeWindows, hasOpenWindow, openWindow } from "./windows.ts";

const base = {
  target: "host:alpha",
  command: "systemctl restart nginx",
  commandKey: "k1",
  risk: "config_mutation" as const,
  purpose: "test",
  requestedBy: "agent",
  timeoutMs: 10_000,
};

for (const { dialect, skip } of availableDialects()) {
  describe(`executions, approvals and windows on ${dialect}`, { skip }, () => {
    let store: TestStore;

    before(async () => {
      store = await createTestStore(dialect);
      for (const id of ["s-a", "s-b"]) {
        await store.db
          .insertInto("sessions")
          .values({ id, platform: "shell", room: "r", thread: id, created_by: "op" })
          .execute();
      }
    });
    after(() => store.dispose());

    test("two concurrent claims of one queued execution: exactly one wins", async () => {
      const row = await createExecution(store.db, {
        ...base,
        sessionId: "s-a",
        status: "queued",
        deadlineAt: new Date(Date.now() + 60_000),
      });
      const results = await Promise.all([
        claimExecution(store.db, row.id, "w1"),
        claimExecution(store.db, row.id, "w2"),
        claimExecution(store.db, row.id, "w3"),
      ]);
      const winners = results.filter((r) => r !== undefined);
      assert.equal(winners.length, 1);
      assert.equal(winners[0]!.status, "running");
      assert.equal(winners[0]!.attempts, 1);
      // a sweep and the worker race to finish: one wins
      const [sweep, worker] = await Promise.all([
        transitionExecution(store.db, row.id, { from: "running", to: "interrupted", reason: "sweep" }),
        transitionExecution(store.db, row.id, {
          from: "running",
          to: "completed",
          workerId: winners[0]!.worker_id!,
        }),
      ]);
      assert.equal([sweep, worker].filter((r) => r !== undefined).length, 1);
    });

    test("a transition the state machine forbids throws before touching the row", async () => {
      const row = await createExecution(store.db, {
        ...base,
        sessionId: "s-a",
        status: "queued",
        deadlineAt: new Date(Date.now() + 60_000),
      });
      await assert.rejects(
        transitionExecution(store.db, row.id, { from: "queued", to: "completed" }),
        /not allowed/,
      );
    });

    test("heartbeat reports a cancel request, only for the worker holding the row", async () => {
      const row = await createExecution(store.db, {
        ...base,
        sessionId: "s-a",
        status: "queued",
        deadlineAt: new Date(Date.now() + 60_000),
      });
      await claimExecution(store.db, row.id, "w1");
      assert.deepEqual(await heartbeatExecution(store.db, row.id, "w2"), {
        alive: false,
        cancelRequested: false,
      });
      assert.deepEqual(await heartbeatExecution(store.db, row.id, "w1"), {
        alive: true,
        cancelRequested: false,
      });
      assert.equal(await requestCancel(store.db, row.id, "op"), true);
      assert.equal(await requestCancel(store.db, row.id, "op"), false);
      assert.deepEqual(await heartbeatExecution(store.db, row.id, "w1"), {
        alive: true,
        cancelRequested: true,
      });
    });

    test("stale finder: dead heartbeat and passed deadline, not live rows", async () => {
      const now = new Date();
      const dead = await createExecution(store.db, {
        ...base,
        sessionId: "s-b",
        status: "queued",
        deadlineAt: new Date(now.getTime() + 600_000),
      });
      await claimExecution(store.db, dead.id, "w9", new Date(now.getTime() - 120_000));
      const live = await createExecution(store.db, {
        ...base,
        sessionId: "s-b",
        status: "queued",
        deadlineAt: new Date(now.getTime() + 600_000),
      });
      await claimExecution(store.db, live.id, "w8", now);
      const late = await createExecution(store.db, {
        ...base,
        sessionId: "s-b",
        status: "queued",
        deadlineAt: new Date(now.getTime() - 1),
      });
      const stale = (await findStaleExecutions(store.db, { now, heartbeatStaleMs: 30_000 })).map((r) => r.id);
      assert.ok(stale.includes(dead.id));
      assert.ok(stale.includes(late.id));
      assert.ok(!stale.includes(live.id));
    });

    test("retry cap counts failed and timed_out of one key in one session only", async () => {
      for (const [session, to] of [
        ["s-a", "failed"],
        ["s-a", "timed_out"],
        ["s-b", "failed"],
      ] as const) {
        const row = await createExecution(store.db, {
          ...base,
          commandKey: "retry-key",
          sessionId: session,
          status: "queued",
          deadlineAt: new Date(Date.now() + 60_000),
        });
        await claimExecution(store.db, row.id, "w");
        await transitionExecution(store.db, row.id, { from: "running", to });
      }
      assert.equal(await countFailuresOfKey(store.db, "s-a", "retry-key"), 2);
      assert.equal(await countFailuresOfKey(store.db, "s-b", "retry-key"), 1);
    });

    test("one pending execution approval per session; other sessions unaffected", async () => {
      const mk = async (sessionId: string) => {
        const execution = await createExecution(store.db, {
          ...base,
          sessionId,
          status: "pending_approval",
          deadlineAt: new Date(Date.now() + 60_000),
        });
        return createExecutionApproval(store.db, {
          sessionId,
          executionId: execution.id,
          commandKey: base.commandKey,
          target: base.target,
          risk: base.risk,
          expiresAt: new Date(Date.now() + 60_000),
        });
      };
      const first = await mk("s-a");
      assert.equal(first.created, true);
      const second = await mk("s-a");
      assert.equal(second.created, false);
      assert.equal(!second.created && second.pending?.id, first.created && first.approval.id);
      assert.equal((await mk("s-b")).created, true);
    });

    test("windows never leak across sessions or targets", async () => {
      const expiresAt = new Date(Date.now() + 60_000);
      await openWindow(store.db, {
        sessionId: "s-a",
        kind: "assent",
        openedBy: "op",
        channel: "button",
        expiresAt,
      });
      await openWindow(store.db, {
        sessionId: "s-a",
        kind: "destructive",
        target: "lxc:x",
        openedBy: "op",
        channel: "phrase",
        expiresAt,
      });
      assert.equal(await hasOpenWindow(store.db, { sessionId: "s-a", kind: "assent" }), true);
      assert.equal(await hasOpenWindow(store.db, { sessionId: "s-b", kind: "assent" }), false);
      assert.equal(await hasOpenWindow(store.db, { sessionId: null, kind: "assent" }), false);
      assert.equal(
        await hasOpenWindow(store.db, { sessionId: "s-a", kind: "destructive", target: "lxc:x" }),
        true,
      );
      assert.equal(
        await hasOpenWindow(store.db, { sessionId: "s-a", kind: "destructive", target: "lxc:y" }),
        false,
      );
      assert.equal(
        await hasOpenWindow(store.db, { sessionId: "s-b", kind: "destructive", target: "lxc:x" }),
        false,
      );
      assert.equal(
        await hasOpenWindow(
          store.db,
          { sessionId: "s-a", kind: "assent" },
          new Date(expiresAt.getTime() + 1),
        ),
        false,
      );
      assert.equal(await closeWindows(store.db, "s-a"), 2);
    });
  });
}
