import assert from "node:assert/strict";
import { test } from "node:test";
import { snapshotLine } from "./card-lines.ts";

const taken = {
  state: "taken",
  name: "oikos-0123abcd",
  tool: "pct",
  vmid: 101,
  guest: "lxc:gitea",
  node: "host:pve1",
  wasRunning: true,
  takenAt: "2026-12-01T12:00:00.000Z",
};

test("the card says snapshot taken, no snapshot and why, rolled back, removed — or nothing", () => {
  assert.equal(snapshotLine(taken), "📸 snapshot taken: `oikos-0123abcd` of `lxc:gitea`");
  assert.equal(
    snapshotLine({
      state: "none",
      code: "storage_cannot_snapshot",
      reason: "rootfs is on local (dir, raw), which cannot snapshot",
    }),
    "no snapshot: rootfs is on local (dir, raw), which cannot snapshot",
  );
  assert.equal(
    snapshotLine({ ...taken, rolledBackAt: "2026-12-01T13:00:00.000Z", rolledBackBy: "@alice" }),
    "⏪ rolled back to snapshot `oikos-0123abcd` by @alice",
  );
  assert.match(
    snapshotLine({ ...taken, removedAt: "2026-12-20T00:00:00.000Z" }) ?? "",
    /removed by retention/,
  );
  assert.equal(snapshotLine(null), null);
  assert.equal(snapshotLine({ state: "someday" }), null);
});

test("ZFS datasets of a host: the datasets and the host; their own no-snapshot reasons", () => {
  const zfs = {
    state: "taken",
    name: "oikos-0123abcd",
    tool: "zfs",
    datasets: ["tank/data", "tank/data/photos"],
    host: "host:nas",
    takenAt: "2026-12-01T12:00:00.000Z",
  };
  assert.equal(
    snapshotLine(zfs),
    "📸 snapshot taken: `oikos-0123abcd` of `tank/data tank/data/photos` on `host:nas`",
  );
  assert.match(snapshotLine({ ...zfs, removedAt: "2026-12-20T00:00:00.000Z" }) ?? "", /removed by retention/);
  assert.equal(
    snapshotLine({
      state: "none",
      code: "cannot_protect",
      reason: "`zfs destroy` of tank/old is itself the destruction",
    }),
    "no snapshot: `zfs destroy` of tank/old is itself the destruction",
  );
  assert.equal(snapshotLine({ ...zfs, datasets: [] }), null, "a taken snapshot names at least one dataset");
});
