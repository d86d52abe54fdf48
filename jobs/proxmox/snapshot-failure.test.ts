import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildApprovalCard } from "../../bot/core/cards/approval-card.ts";
import { decideApproval } from "../../store/consent.ts";
import type { DomainEvent } from "../../store/domain-events.ts";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { createExecution, type Execution } from "../../store/executions.ts";
import { createSession } from "../../store/sessions.ts";
import { type PveStack, startPveStack } from "../../test-support/jobs/proxmox/pve-stack.ts";
import { labSshTarget } from "../../test-support/sshd/lab-targets.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

/**
 * `snapshotBefore: mutating`: the operator expects every change protected. When the snapshot fails —
 * here because a `vzdump` backup holds the container's lock, as on a real node — the change must not
 * run unprotected: it waits, and the operator decides on a card whether it runs without one.
 */
describe("a snapshot that fails before a change", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let pve: PveStack;
  const published: DomainEvent[] = [];
  before(async () => {
    pve = await startPveStack({ mode: "mutating", onFailure: "ask" });
    pve.events.subscribe("*", (event) => {
      published.push(event);
    });
  });
  after(() => pve?.stop());

  /** A queued execution through the worker, until it ends or waits for the operator. */
  const runUntilSettled = async (row: Execution): Promise<Execution> => {
    await pve.queue.enqueue("execute", { executionId: row.id }, { jobId: `execute:${row.id}:first` });
    for (let waited = 0; ; waited += 100) {
      const current = await pve.store.db
        .selectFrom("executions")
        .selectAll()
        .where("id", "=", row.id)
        .executeTakeFirstOrThrow();
      if (["pending_approval", "completed", "failed"].includes(current.status)) return current;
      assert.ok(waited < 120_000, `execution stuck in ${current.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  test("vzdump holds the lock: nothing runs, the card asks 'run without a snapshot?', approving runs it unprotected", async () => {
    const session = await createSession(pve.store.db, {
      platform: "matrix",
      room: "!ops",
      thread: "$t1",
      createdBy: "@alice:hs",
    });
    await pve.cluster.update((state) => {
      state.vzdumpSeconds = 20;
    });
    const backup = pve.router.exec(labSshTarget(pve.lab.host("pve1")), "vzdump 101 --mode snapshot", {
      timeoutMs: 60_000,
    });
    for (let waited = 0; (await pve.cluster.read()).guests["101"]!.lock !== "backup"; waited += 100) {
      assert.ok(waited < 30_000, "vzdump never took the lock");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const row = await createExecution(pve.store.db, {
      sessionId: session.id,
      target: "lxc:gitea",
      command: "echo changed > marker",
      commandKey: "lxc:gitea echo changed > marker",
      risk: "config_mutation",
      purpose: "edit the config",
      requestedBy: "agent",
      status: "queued",
      timeoutMs: 60_000,
      deadlineAt: new Date(Date.now() + 600_000),
    });
    const waiting = await runUntilSettled(row);
    assert.equal(waiting.status, "pending_approval", waiting.status_reason ?? "");
    assert.ok(!existsSync(join(pve.cluster.guestDir(101), "marker")), "nothing ran");
    const snapshot = readExecutionSnapshot(waiting.snapshot);
    assert.ok(snapshot?.state === "none" && snapshot.code === "failed", JSON.stringify(waiting.snapshot));
    assert.match(snapshot.reason, /CT is locked \(backup\)/);
    assert.ok(snapshot.asked && snapshot.asked === waiting.approval_id);
    assert.ok(
      published.some((e) => e.type === "approval.requested" && e.approvalId === snapshot.asked),
      "the card is posted",
    );
    const card = await buildApprovalCard(pve.store.db, snapshot.asked);
    assert.ok(card);
    assert.equal(card.title, "📸 Snapshot failed — run without one?");
    assert.ok(
      card.lines.some((line) => /snapshot before this change failed: .*CT is locked \(backup\)/.test(line)),
    );
    assert.deepEqual(card.reactions, ["✅", "❌"], "a config change: ✅ to run it without a snapshot");
    const audit = await pve.store.db
      .selectFrom("audit_log")
      .select("action")
      .where("subject", "=", row.id)
      .execute();
    assert.ok(audit.some((a) => a.action === "snapshot.failed_asked"));

    await backup;
    const decided = await decideApproval(pve.store.db, {
      approvalId: snapshot.asked,
      sessionId: session.id,
      decision: "approved",
      by: "@alice:hs",
      via: "reaction",
    });
    assert.ok(decided.ok, JSON.stringify(decided));
    const done = await pve.runQueued(row.id);
    assert.equal(done.status, "completed", done.status_reason ?? "");
    assert.ok(existsSync(join(pve.cluster.guestDir(101), "marker")), "it ran once approved");
    const waived = readExecutionSnapshot(done.snapshot);
    assert.ok(waived?.state === "none" && waived.waivedBy === "@alice:hs", JSON.stringify(done.snapshot));
    const snapshotCalls = (await pve.cluster.calls()).filter(
      (c) => c.tool === "pct" && c.args[0] === "snapshot",
    );
    assert.equal(snapshotCalls.length, 1, "no second snapshot attempt after the operator waived it");
  });

  test("with no thread to ask in, it does not run and says why", async () => {
    await pve.cluster.update((state) => {
      state.failSnapshot = [101];
    });
    const row = await createExecution(pve.store.db, {
      sessionId: null,
      target: "lxc:gitea",
      command: "echo again > marker2",
      commandKey: "k2",
      risk: "destructive",
      purpose: "t",
      requestedBy: "test",
      status: "queued",
      timeoutMs: 60_000,
      deadlineAt: new Date(Date.now() + 600_000),
    });
    const ended = await runUntilSettled(row);
    assert.equal(ended.status, "failed");
    assert.match(ended.status_reason ?? "", /nothing ran: the snapshot before it failed .*out of space/);
    assert.ok(!existsSync(join(pve.cluster.guestDir(101), "marker2")));
  });
});
