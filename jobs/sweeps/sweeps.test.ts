import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createExecutionApproval, getApproval } from "../../store/approvals.ts";
import { claimExecution, createExecution, getExecution } from "../../store/executions.ts";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import type { RunnableRisk } from "../../store/statuses.ts";
import { availableDialects, createTestStore, type TestStore } from "../../test-support/store.ts";
import { InProcessEventBus } from "../events/in-process.ts";
import type { DomainEvent } from "../events/types.ts";
import { InProcessQueue } from "../queue/in-process.ts";
import { registerAllSweeps } from "./default-sweeps.ts";
import { registerSweep, runSweeps, type SweepContext } from "./registry.ts";

const base = {
  target: "host:alpha",
  command: "apt-get upgrade -y",
  commandKey: "k",
  purpose: "t",
  requestedBy: "agent",
  timeoutMs: 60_000,
};

for (const { dialect, skip } of availableDialects()) {
  describe(`sweeps on ${dialect}`, { skip }, () => {
    let store: TestStore;
    let events: InProcessEventBus;
    let queue: InProcessQueue;
    const published: DomainEvent[] = [];

    before(async () => {
      store = await createTestStore(dialect);
      events = new InProcessEventBus();
      events.subscribe("*", (event) => {
        published.push(event);
      });
      // not started: enqueued jobs stay in the journal where the test can see them
      queue = new InProcessQueue({ journal: new KyselyJobJournal(store.db) });
      await store.db
        .insertInto("sessions")
        .values({ id: "s-1", platform: "shell", room: "r", thread: "t", created_by: "op" })
        .execute();
      registerAllSweeps();
    });
    after(async () => {
      await queue.close({ graceMs: 100 });
      await store.dispose();
    });

    const ctx = (now = new Date()): SweepContext => ({
      db: store.db,
      events,
      queue,
      now,
      heartbeatStaleMs: 30_000,
    });

    async function running(risk: RunnableRisk, heartbeatAgoMs: number) {
      const row = await createExecution(store.db, {
        ...base,
        risk,
        sessionId: "s-1",
        status: "queued",
        deadlineAt: new Date(Date.now() + 600_000),
      });
      await claimExecution(store.db, row.id, "dead-worker", new Date(Date.now() - heartbeatAgoMs));
      return row.id;
    }

    test("stale: a dead mutating run is interrupted and reported, a dead read-only one re-queued", async () => {
      const mutating = await running("config_mutation", 120_000);
      const readOnly = await running("read_only", 120_000);
      const live = await running("config_mutation", 1_000);
      const neverStarted = await createExecution(store.db, {
        ...base,
        risk: "config_mutation",
        sessionId: "s-1",
        status: "queued",
        deadlineAt: new Date(Date.now() - 1),
      });
      const [report] = await runSweeps("stale", ctx());
      assert.equal(report?.error, undefined);
      const bySubject = new Map(report!.items.map((item) => [item.subject.split(" ")[1], item]));
      assert.equal(bySubject.get(mutating)?.detail, "interrupted");
      assert.equal(bySubject.get(readOnly)?.detail, "read-only: re-queued");
      assert.match(bySubject.get(neverStarted.id)?.detail ?? "", /^expired/);
      assert.equal(bySubject.has(live), false);
      assert.equal((await getExecution(store.db, mutating))?.status, "interrupted");
      assert.match((await getExecution(store.db, mutating))?.status_reason ?? "", /not re-run/);
      assert.equal((await getExecution(store.db, readOnly))?.status, "queued");
      assert.equal((await getExecution(store.db, live))?.status, "running");
      assert.ok(
        published.some(
          (e) => e.type === "execution.finished" && e.executionId === mutating && e.status === "interrupted",
        ),
      );
      const jobs = await store.db.selectFrom("queue_jobs").select(["queue", "data"]).execute();
      assert.ok(
        jobs.some(
          (job) => job.queue === "execute" && (job.data as { executionId: string }).executionId === readOnly,
        ),
      );
      // a second pass finds nothing more to do
      const [again] = await runSweeps("stale", ctx());
      assert.deepEqual(
        again!.items.filter((item) => [mutating, neverStarted.id].some((id) => item.subject.includes(id))),
        [],
      );
    });

    test("approvals: a pending approval past expiry expires with its execution", async () => {
      const execution = await createExecution(store.db, {
        ...base,
        risk: "config_mutation",
        sessionId: "s-1",
        status: "pending_approval",
        deadlineAt: new Date(Date.now() + 1_000),
      });
      const approval = await createExecutionApproval(store.db, {
        sessionId: "s-1",
        executionId: execution.id,
        commandKey: "k",
        target: base.target,
        risk: "config_mutation",
        expiresAt: new Date(Date.now() + 1_000),
      });
      assert.ok(approval.created);
      const [early] = await runSweeps("approvals", ctx());
      assert.equal(early!.items.length, 0);
      const [report] = await runSweeps("approvals", ctx(new Date(Date.now() + 5_000)));
      assert.equal(report!.items.length, 1);
      assert.match(report!.items[0]!.detail, /execution .* expired/);
      assert.equal((await getApproval(store.db, approval.approval.id))?.status, "expired");
      assert.equal((await getExecution(store.db, execution.id))?.status, "expired");
    });

    test("all: one failing sweep is reported and the others still run", async () => {
      registerSweep("broken-for-test", async () => {
        throw new Error("boom");
      });
      const reports = await runSweeps("all", ctx());
      assert.deepEqual(
        reports.map((r) => [r.kind, r.error]),
        [
          ["stale", undefined],
          ["approvals", undefined],
          ["reminders", undefined],
          ["broken-for-test", "boom"],
        ],
      );
      const [unknown] = await runSweeps("nope", ctx());
      assert.match(unknown!.error ?? "", /unknown sweep/);
    });
  });
}
