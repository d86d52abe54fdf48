import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { recordExecutionSnapshot } from "../../store/executions.ts";
import { PVE_TARGETS, type PveStack, startPveStack } from "../../test-support/jobs/proxmox/pve-stack.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { sweepOikosSnapshots } from "./retention.ts";

const unavailable = await sshLabUnavailable();
const DAY = 86_400_000;

describe("snapshot retention", { skip: unavailable ? `sshd unavailable: ${unavailable}` : false }, () => {
  let pve: PveStack;
  before(async () => {
    pve = await startPveStack({ mode: "mutating" });
  });
  after(() => pve?.stop());

  test("removes the snapshots oikos recorded taking, older than N days, and never any other — an operator's oikos-… stays", async () => {
    const old = await pve.execute("lxc:gitea", "true", "destructive");
    const recent = await pve.execute("vm:win11", "true", "config_mutation");
    const now = Date.now();
    const twentyDaysAgo = Math.floor((now - 20 * DAY) / 1000);
    await pve.cluster.update((state) => {
      const gitea = state.guests["101"]!;
      // the operator's own snapshots: one named almost like ours, one exactly in our format (made by
      // hand, or by a second oikos with its own database)
      gitea.snapshots = [
        { name: "before-upgrade", snaptime: Math.floor((now - 90 * DAY) / 1000) },
        { name: "oikos-manual", snaptime: Math.floor((now - 90 * DAY) / 1000) },
        { name: "oikos-0badc0de", snaptime: Math.floor((now - 90 * DAY) / 1000) },
        ...(gitea.snapshots ?? []).map((s) => ({ ...s, snaptime: twentyDaysAgo })),
      ];
    });
    // ours was taken 20 days ago: the record says so too
    const taken = readExecutionSnapshot(
      (
        await pve.store.db
          .selectFrom("executions")
          .select("snapshot")
          .where("id", "=", old.id)
          .executeTakeFirstOrThrow()
      ).snapshot,
    );
    assert.ok(taken?.state === "taken");
    await recordExecutionSnapshot(pve.store.db, old.id, {
      ...taken,
      takenAt: new Date(twentyDaysAgo * 1000).toISOString(),
    });
    const sweep = (retentionDays: number) =>
      sweepOikosSnapshots({
        db: pve.store.db,
        runner: pve.router,
        targets: PVE_TARGETS,
        retentionDays,
        now: new Date(now),
      });

    assert.deepEqual(await sweep(0), [], "0 keeps everything");
    const items = await sweep(14);
    const oldName = `oikos-${old.id.slice(3, 11)}`;
    assert.deepEqual(
      items.map((i) => [i.subject, i.outcome]),
      [[`lxc:gitea@${oldName}`, "changed"]],
    );
    assert.match(items[0]!.detail, /older than 14 days/);
    const state = await pve.cluster.read();
    assert.deepEqual(
      state.guests["101"]!.snapshots?.map((s) => s.name),
      ["before-upgrade", "oikos-manual", "oikos-0badc0de"],
    );
    assert.equal(state.guests["200"]!.snapshots?.length, 1, "the recent VM snapshot stays");

    const rows = await pve.store.db
      .selectFrom("executions")
      .select(["id", "snapshot"])
      .where("id", "in", [old.id, recent.id])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, readExecutionSnapshot(r.snapshot)]));
    const oldSnap = byId.get(old.id);
    assert.ok(oldSnap?.state === "taken" && oldSnap.removedAt);
    const recentSnap = byId.get(recent.id);
    assert.ok(recentSnap?.state === "taken" && !recentSnap.removedAt);
    assert.deepEqual(await sweep(14), [], "a second pass finds nothing more");

    // the VM's snapshot deleted by hand: its execution no longer offers a rollback
    await pve.cluster.update((state) => {
      state.guests["200"]!.snapshots = [];
    });
    const gone = await sweep(14);
    assert.deepEqual(
      gone.map((i) => [i.subject, i.outcome]),
      [[`vm:win11@oikos-${recent.id.slice(3, 11)}`, "changed"]],
    );
    assert.match(gone[0]!.detail, /no longer listed/);
    const after = readExecutionSnapshot(
      (
        await pve.store.db
          .selectFrom("executions")
          .select("snapshot")
          .where("id", "=", recent.id)
          .executeTakeFirstOrThrow()
      ).snapshot,
    );
    assert.ok(after?.state === "taken" && after.removedAt);
  });
});
