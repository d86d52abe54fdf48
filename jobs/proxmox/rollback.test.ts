import assert from "node:assert/strict";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decideApproval } from "../../store/consent.ts";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { createSession } from "../../store/sessions.ts";
import {
  markedRolledBack,
  PVE_TARGETS,
  type PveStack,
  startPveStack,
} from "../../test-support/jobs/proxmox/pve-stack.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { requestRollback } from "./rollback.ts";

const unavailable = await sshLabUnavailable();

describe("rollback to the snapshot taken before a change", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let pve: PveStack;
  let sessionId: string;
  before(async () => {
    pve = await startPveStack({ mode: "destructive" });
    sessionId = (
      await createSession(pve.store.db, {
        platform: "matrix",
        room: "!ops",
        thread: "$t1",
        createdBy: "@alice",
      })
    ).id;
  });
  after(() => pve?.stop());
  const deps = () => ({ db: pve.store.db, events: pve.events, targets: PVE_TARGETS, runner: pve.router });

  test("the guest is back as it was: typed phrase naming the guest, pct rollback --start, marked and audited", async () => {
    const guestFile = join(pve.cluster.guestDir(101), "version");
    await writeFile(guestFile, "1.0\n", { mode: 0o666 });
    await chmod(guestFile, 0o666); // the lab user writes it from inside the "guest"
    const change = await pve.execute(
      "lxc:gitea",
      "echo 2.0-broken > version",
      "destructive",
      "apt upgrade",
      sessionId,
    );
    assert.equal(change.status, "completed");
    assert.equal(await readFile(guestFile, "utf8"), "2.0-broken\n");

    const asked = await requestRollback(deps(), { executionId: change.id, by: "@alice" });
    assert.ok(asked.ok, asked.ok ? "" : asked.reason);
    assert.equal(asked.phrase, "rollback lxc:gitea");
    const rollback = await pve.store.db
      .selectFrom("executions")
      .selectAll()
      .where("id", "=", asked.executionId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [rollback.status, rollback.risk, rollback.target, rollback.rollback_of],
      ["pending_approval", "destructive", "host:pve1", change.id],
    );
    assert.equal(rollback.command, `pct rollback 101 oikos-${change.id.slice(3, 11)} --start 1`);

    // a reaction is not enough, nor the wrong words; the exact phrase is
    const decide = (typedPhrase?: string) =>
      decideApproval(pve.store.db, {
        approvalId: asked.approvalId,
        sessionId,
        decision: "approved",
        by: "@alice",
        via: typedPhrase ? "phrase" : "reaction",
        ...(typedPhrase ? { typedPhrase } : {}),
      });
    assert.equal((await decide()).ok, false);
    assert.equal((await decide("rollback lxc:wiki")).ok, false);
    assert.equal(await readFile(guestFile, "utf8"), "2.0-broken\n", "nothing ran before the phrase");
    const approved = await decide("`Rollback lxc:gitea`.");
    assert.equal(approved.ok, true, JSON.stringify(approved));

    const done = await pve.runQueued(asked.executionId);
    assert.equal(done.status, "completed", done.stderr ?? "");
    assert.equal(await readFile(guestFile, "utf8"), "1.0\n");
    const state = await pve.cluster.read();
    assert.equal(state.guests["101"]!.status, "running", "started again: it ran when the snapshot was taken");
    assert.equal(state.guests["101"]!.rollbacks, 1);

    const snapshot = await markedRolledBack(pve, change.id);
    assert.ok(snapshot.state === "taken" && snapshot.rolledBackAt && snapshot.rolledBackBy === "@alice");
    const audit = await pve.store.db
      .selectFrom("audit_log")
      .select(["action", "actor"])
      .where("subject", "=", change.id)
      .execute();
    assert.deepEqual(audit.map((a) => a.action).sort(), ["rollback.done", "rollback.requested"]);

    const again = await requestRollback(deps(), { executionId: change.id, by: "@alice" });
    assert.equal(again.ok, false);
    assert.match(again.ok ? "" : again.reason, /already rolled back/);
  });

  test("without a snapshot there is nothing to roll back to, and it says why", async () => {
    const change = await pve.execute("lxc:scratch", "true", "destructive", "t", sessionId);
    const asked = await requestRollback(deps(), { executionId: change.id, by: "@alice" });
    assert.equal(asked.ok, false);
    assert.match(asked.ok ? "" : asked.reason, /no snapshot was taken before it \(rootfs is on local/);
    const unknown = await requestRollback(deps(), { executionId: "ex-000000000000", by: "@alice" });
    assert.match(unknown.ok ? "" : unknown.reason, /there is no execution/);
  });

  test("ZFS: ⏪ on the older of two changes says Proxmox would refuse it before any phrase, and offers the newest", async () => {
    const first = await pve.execute("lxc:gitea", "echo one > step", "destructive", "first change", sessionId);
    const second = await pve.execute(
      "lxc:gitea",
      "echo two > step",
      "destructive",
      "second change",
      sessionId,
    );
    assert.equal(readExecutionSnapshot(second.snapshot)?.state, "taken");
    const approvalsBefore = await pve.store.db.selectFrom("approvals").select("id").execute();

    const asked = await requestRollback(deps(), { executionId: first.id, by: "@alice" });
    assert.equal(asked.ok, false);
    const reason = asked.ok ? "" : asked.reason;
    const [firstName, secondName] = [first.id, second.id].map((id) => `oikos-${id.slice(3, 11)}`);
    assert.match(
      reason,
      new RegExp(
        `lxc:gitea is on ZFS, which rolls back only to its most recent snapshot, and ${firstName} is not: ${secondName} is newer`,
      ),
    );
    assert.match(
      reason,
      new RegExp(
        `roll back to the newest, ${secondName} \\(taken before execution ${second.id}\\): \`!oikos rollback ${second.id}\``,
      ),
    );
    assert.match(reason, new RegExp(`pct delsnapshot 101 ${secondName}`));
    // nothing was asked: no approval, no rollback execution, and Proxmox was not asked to roll back
    assert.equal(
      (await pve.store.db.selectFrom("approvals").select("id").execute()).length,
      approvalsBefore.length,
    );
    assert.ok(!(await pve.cluster.calls()).some((c) => c.args[0] === "rollback" && c.args[2] === firstName));

    // the newest one is what a rollback can reach
    const newest = await requestRollback(deps(), { executionId: second.id, by: "@alice" });
    assert.ok(newest.ok, newest.ok ? "" : newest.reason);
    await decideApproval(pve.store.db, {
      approvalId: newest.approvalId,
      sessionId,
      decision: "denied",
      by: "@alice",
      via: "reaction",
    });
  });

  test("LVM-thin keeps the snapshot tree: the older of two changes can be rolled back to", async () => {
    await pve.cluster.update((state) => {
      state.guests["102"]!.status = "running";
    });
    const first = await pve.execute("lxc:wiki", "echo one > step", "destructive", "first", sessionId);
    await pve.execute("lxc:wiki", "echo two > step", "destructive", "second", sessionId);
    const asked = await requestRollback(deps(), { executionId: first.id, by: "@alice" });
    assert.ok(asked.ok, asked.ok ? "" : asked.reason);
    await decideApproval(pve.store.db, {
      approvalId: asked.approvalId,
      sessionId,
      decision: "denied",
      by: "@alice",
      via: "reaction",
    });
  });
});
