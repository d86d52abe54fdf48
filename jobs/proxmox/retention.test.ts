import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
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

  test("removes oikos snapshots older than N days and never any other; lists what it removed", async () => {
    const old = await pve.execute("lxc:gitea", "true", "destructive");
    const recent = await pve.execute("vm:win11", "true", "config_mutation");
    const now = Date.now();
    await pve.cluster.update((state) => {
      const gitea = state.guests["101"]!;
      // the operator's own snapshots, one of them named almost like ours
      gitea.snapshots = [
        { name: "before-upgrade", snaptime: Math.floor((now - 90 * DAY) / 1000) },
        { name: "oikos-manual", snaptime: Math.floor((now - 90 * DAY) / 1000) },
        ...(gitea.snapshots ?? []).map((s) => ({ ...s, snaptime: Math.floor((now - 20 * DAY) / 1000) })),
      ];
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
      ["before-upgrade", "oikos-manual"],
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
  });
});
