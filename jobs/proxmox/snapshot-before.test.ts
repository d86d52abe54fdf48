import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { upsertEntities } from "../../store/entities.ts";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { type PveStack, startPveStack } from "../../test-support/jobs/proxmox/pve-stack.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

describe("snapshot before an approved change on a Proxmox guest", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let pve: PveStack;
  before(async () => {
    // destructive everywhere, config changes too on the VM win11 (per entity)
    // a failed snapshot runs the change unprotected here (snapshot-failure.test.ts: the default, ask)
    pve = await startPveStack({
      mode: "destructive",
      perEntity: { "vm:win11": "mutating" },
      onFailure: "run",
    });
    // LVM-thin: the stopped wiki is started so pct exec can run in it
    await pve.cluster.update((state) => {
      state.guests["102"]!.status = "running";
    });
  });
  after(() => pve?.stop());

  test("ZFS container: pct snapshot named after the execution, with the task in its description, before the command", async () => {
    const row = await pve.execute("lxc:gitea", "echo changed > marker", "destructive", "replace the config");
    assert.equal(row.status, "completed");
    const snapshot = readExecutionSnapshot(row.snapshot);
    assert.ok(snapshot?.state === "taken" && snapshot.tool !== "zfs", JSON.stringify(row.snapshot));
    assert.equal(snapshot.name, `oikos-${row.id.slice(3, 11)}`);
    assert.deepEqual(
      [snapshot.tool, snapshot.vmid, snapshot.guest, snapshot.node, snapshot.wasRunning],
      ["pct", 101, "lxc:gitea", "host:pve1", true],
    );
    const state = await pve.cluster.read();
    const taken = state.guests["101"]!.snapshots?.find((s) => s.name === snapshot.name);
    assert.match(taken?.description ?? "", new RegExp(`${row.id}: replace the config`));
    // the snapshot came before the command
    const calls = (await pve.cluster.calls()).filter((c) => c.tool === "pct");
    const snapAt = calls.findIndex((c) => c.args[0] === "snapshot");
    const execAt = calls.findIndex((c, i) => i > snapAt && c.args[0] === "exec");
    assert.ok(snapAt >= 0 && execAt > snapAt);
  });

  test("LVM-thin container and qcow2 VM on NFS snapshot too (qm for the VM)", async () => {
    const wiki = readExecutionSnapshot((await pve.execute("lxc:wiki", "true", "destructive")).snapshot);
    assert.equal(wiki?.state === "taken" && wiki.tool, "pct");
    const win = readExecutionSnapshot((await pve.execute("vm:win11", "true", "config_mutation")).snapshot);
    assert.equal(win?.state === "taken" && win.tool, "qm");
    assert.equal(win?.state === "taken" && win.tool !== "zfs" && win.node, "host:pve2");
  });

  test("no snapshot, and why: directory storage, raw on NFS, config change while only destructive, snapshot failure", async () => {
    const reasonOf = async (target: string, risk: "destructive" | "config_mutation") => {
      const row = await pve.execute(target, "true", risk);
      assert.equal(row.status, "completed", "the approved change still runs");
      const snapshot = readExecutionSnapshot(row.snapshot);
      assert.ok(snapshot?.state === "none", JSON.stringify(row.snapshot));
      return snapshot;
    };
    const scratch = await reasonOf("lxc:scratch", "destructive");
    assert.equal(scratch.code, "storage_cannot_snapshot");
    assert.match(scratch.reason, /rootfs is on local \(dir, raw\)/);
    assert.equal((await reasonOf("vm:router", "destructive")).code, "storage_cannot_snapshot");
    assert.equal((await reasonOf("lxc:gitea", "config_mutation")).code, "disabled");
    await pve.cluster.update((state) => {
      state.failSnapshot = [101];
    });
    const failed = await reasonOf("lxc:gitea", "destructive");
    assert.equal(failed.code, "failed");
    assert.match(failed.reason, /pct snapshot failed: zfs error: out of space/);
  });

  test("read-only commands and plain hosts record nothing", async () => {
    assert.equal((await pve.execute("lxc:gitea", "true", "read_only")).snapshot, null);
    assert.equal((await pve.execute("host:pve1", "true", "destructive")).snapshot, null);
  });

  test("a guest never discovered (no disks recorded) says so", async () => {
    await upsertEntities(
      pve.store.db,
      [
        {
          slug: "lxc:handmade",
          type: "lxc",
          name: "handmade",
          transport: "pct-exec",
          parentSlug: "host:pve1",
          attributes: { vmid: 101 },
        },
      ],
      { by: "test" },
    );
    const row = await pve.execute("lxc:handmade", "true", "destructive");
    const snapshot = readExecutionSnapshot(row.snapshot);
    assert.equal(snapshot?.state === "none" && snapshot.code, "no_disks");
  });
});
