import assert from "node:assert/strict";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
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
import { sweepOikosSnapshots } from "./retention.ts";
import { requestRollback } from "./rollback.ts";

const unavailable = await sshLabUnavailable();
const DAY = 86_400_000;

describe("ZFS datasets on a plain host: snapshot before a destructive change, rollback, retention", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  let pve: PveStack;
  let sessionId: string;
  let data: string;
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  const zfsCalls = async (verb: string) =>
    (await pve.cluster.calls()).filter((c) => c.tool === "zfs" && c.args[0] === verb);

  before(async () => {
    pve = await startPveStack({ mode: "destructive" });
    data = join(pve.cluster.root, "mnt", "data");
    await mkdir(join(data, "old"), { recursive: true, mode: 0o777 });
    await mkdir(join(data, "photos"), { recursive: true, mode: 0o777 });
    for (const dir of [join(pve.cluster.root, "mnt"), data, join(data, "old"), join(data, "photos")])
      await chmod(dir, 0o777);
    await writeFile(join(data, "old", "report.txt"), "keep me\n", { mode: 0o666 });
    await writeFile(join(data, "photos", "cat.jpg"), "meow\n", { mode: 0o666 });
    await pve.cluster.update((state) => {
      state.datasets = {
        "tank/media": { node: "pve1", snapshots: [{ name: "autosnap-1", creation: 1_700_000_000 }] },
        "tank/data": {
          node: "pve1",
          mountpoint: data,
          snapshots: [{ name: "weekly-1", creation: 1_700_000_000 }],
        },
        "tank/data/photos": { node: "pve1", mountpoint: join(data, "photos"), snapshots: [] },
        "backup/data": { node: "pve1", mountpoint: "/backup/data", mounted: false, snapshots: [] },
      };
    });
    sessionId = (
      await createSession(pve.store.db, {
        platform: "matrix",
        room: "!ops",
        thread: "$zfs",
        createdBy: "@alice",
      })
    ).id;
  });
  after(() => pve?.stop());

  test("rm -rf under a dataset: zfs snapshot of that dataset first, then ⏪ with the phrase naming it brings the files back", async () => {
    const change = await pve.execute(
      "host:pve1",
      `rm -rf ${join(data, "old")}`,
      "destructive",
      "clean up old reports",
      sessionId,
    );
    assert.equal(change.status, "completed", change.stderr ?? "");
    assert.equal(await exists(join(data, "old", "report.txt")), false, "the command ran");
    const snapshot = readExecutionSnapshot(change.snapshot);
    const name = `oikos-${change.id.slice(3, 11)}`;
    assert.deepEqual(
      snapshot?.state === "taken" &&
        snapshot.tool === "zfs" && [snapshot.name, snapshot.datasets, snapshot.host],
      [name, ["tank/data"], "host:pve1"],
    );
    // the read-only zfs list, then the snapshot, both before the command
    const calls = (await pve.cluster.calls()).filter((c) => c.tool === "zfs").map((c) => c.args[0]);
    assert.deepEqual(calls, ["list", "snapshot"]);
    const state = await pve.cluster.read();
    assert.deepEqual(
      state.datasets?.["tank/data"]?.snapshots.map((s) => s.name),
      ["weekly-1", name],
    );
    assert.deepEqual(state.datasets?.["tank/data/photos"]?.snapshots, [], "a path below only the parent");

    const asked = await requestRollback(
      { db: pve.store.db, events: pve.events, targets: PVE_TARGETS },
      { executionId: change.id, by: "@alice" },
    );
    assert.ok(asked.ok, asked.ok ? "" : asked.reason);
    assert.equal(asked.phrase, "rollback tank/data");
    const decide = (typedPhrase?: string) =>
      decideApproval(pve.store.db, {
        approvalId: asked.approvalId,
        sessionId,
        decision: "approved",
        by: "@alice",
        via: typedPhrase ? "phrase" : "reaction",
        ...(typedPhrase ? { typedPhrase } : {}),
      });
    assert.equal((await decide()).ok, false, "a reaction is not enough");
    assert.equal((await decide("rollback tank/media")).ok, false, "nor another dataset's name");
    assert.equal((await decide("rollback tank/data")).ok, true);
    const done = await pve.runQueued(asked.executionId);
    assert.equal(done.status, "completed", done.stderr ?? "");
    assert.equal(done.command, `zfs rollback tank/data@${name}`);
    assert.equal(done.snapshot, null, "the rollback itself is not snapshotted, nor said to be unprotected");
    assert.equal(await readFile(join(data, "old", "report.txt"), "utf8"), "keep me\n");
    const marked = await markedRolledBack(pve, change.id);
    assert.equal(marked.state === "taken" && marked.rolledBackBy, "@alice");
    const again = await requestRollback(
      { db: pve.store.db, events: pve.events, targets: PVE_TARGETS },
      { executionId: change.id, by: "@alice" },
    );
    assert.equal(again.ok, false);
  });

  test("a recursive removal above nested datasets snapshots each of them, atomically in one command", async () => {
    const before = (await zfsCalls("snapshot")).length;
    const change = await pve.execute("host:pve1", `find ${data} -name '*.tmp' -delete`, "destructive");
    const snapshot = readExecutionSnapshot(change.snapshot);
    assert.deepEqual(snapshot?.state === "taken" && snapshot.tool === "zfs" && snapshot.datasets, [
      "tank/data",
      "tank/data/photos",
    ]);
    assert.equal((await zfsCalls("snapshot")).length, before + 1);
  });

  test("no snapshot, and why: zfs's own destructive verbs, a config change while only destructive, a failed snapshot", async () => {
    const destroy = await pve.execute("host:pve1", "zfs destroy tank/media@autosnap-1", "destructive");
    const none = readExecutionSnapshot(destroy.snapshot);
    assert.equal(none?.state === "none" && none.code, "cannot_protect");
    assert.match(none?.state === "none" ? none.reason : "", /zfs destroy.*tank\/media/);
    assert.equal(destroy.status, "completed", "the approved change still ran");

    const rollback = await pve.execute("host:pve1", "zfs rollback tank/data@weekly-1", "destructive");
    const refused = readExecutionSnapshot(rollback.snapshot);
    assert.equal(refused?.state === "none" && refused.code, "cannot_protect");

    const config = await pve.execute("host:pve1", `echo x > ${join(data, "setting")}`, "config_mutation");
    const disabled = readExecutionSnapshot(config.snapshot);
    assert.equal(disabled?.state === "none" && disabled.code, "disabled");

    await pve.cluster.update((state) => {
      state.failZfsSnapshot = ["tank/data"];
    });
    const failed = await pve.execute("host:pve1", `rm -f ${join(data, "setting")}`, "destructive");
    const why = readExecutionSnapshot(failed.snapshot);
    assert.equal(why?.state === "none" && why.code, "failed");
    assert.match(why?.state === "none" ? why.reason : "", /zfs snapshot failed: .*out of space/);
    // execution.snapshotFailure is ask: not run unprotected (no thread to ask in here, so it fails)
    assert.equal(failed.status, "failed");
    assert.match(failed.status_reason ?? "", /nothing ran: the snapshot before it failed/);
    assert.equal(await exists(join(data, "setting")), true, "the change did not run without one");
    await pve.cluster.update((state) => {
      state.failZfsSnapshot = [];
    });
  });

  test("nothing to say: a path on no dataset, an unmounted one, a read-only command, a host without zfs", async () => {
    const snapshots = (await zfsCalls("snapshot")).length;
    for (const command of [`rm -rf ${join(pve.cluster.root, "elsewhere")}`, "rm -rf /backup/data/x"]) {
      const row = await pve.execute("host:pve1", command, "destructive");
      assert.equal(row.snapshot, null, command);
    }
    const readOnly = await pve.execute("host:pve1", `ls ${data}`, "read_only");
    assert.equal(readOnly.snapshot, null);
    // pve2 plays a host whose zfs knows no dataset of its own; a host without any zfs is the same to oikos
    const other = await pve.execute("host:pve2", `rm -rf ${join(data, "x")}`, "destructive");
    assert.equal(other.snapshot, null);
    assert.equal((await zfsCalls("snapshot")).length, snapshots);
  });

  test("retention removes old oikos snapshots of datasets only, and the executions say so", async () => {
    const sweep = (days: number, now: number) =>
      sweepOikosSnapshots({
        db: pve.store.db,
        runner: pve.router,
        targets: PVE_TARGETS,
        retentionDays: days,
        now: new Date(now),
      });
    assert.deepEqual(await sweep(7, Date.now()), [], "nothing is 7 days old yet");
    const removed = await sweep(7, Date.now() + 8 * DAY);
    assert.ok(removed.length >= 2, JSON.stringify(removed));
    for (const item of removed) {
      assert.equal(item.outcome, "changed", JSON.stringify(item));
      assert.match(item.subject, /^host:pve1:tank\/data(\/photos)?@oikos-[0-9a-f]{8}$/);
    }
    const state = await pve.cluster.read();
    assert.deepEqual(
      state.datasets?.["tank/data"]?.snapshots.map((s) => s.name),
      ["weekly-1"],
      "never any other snapshot",
    );
    assert.deepEqual(state.datasets?.["tank/data/photos"]?.snapshots, []);
    const rows = await pve.store.db.selectFrom("executions").select("snapshot").execute();
    const taken = rows.map((r) => readExecutionSnapshot(r.snapshot)).filter((s) => s?.state === "taken");
    assert.ok(taken.length >= 2);
    for (const snapshot of taken) assert.ok(snapshot?.state === "taken" && snapshot.removedAt);
  });
});
