import assert from "node:assert/strict";
import { test } from "node:test";
import { rollbackPossibility } from "./rollback-possible.ts";

const listed = [
  { name: "before-upgrade", takenAt: 100 },
  { name: "oikos-aaaaaaaa", takenAt: 200 },
  { name: "oikos-bbbbbbbb", takenAt: 300 },
  { name: "current" },
];

test("ZFS: only the most recent snapshot; the newer ones are named, the newest offered", () => {
  const verdict = rollbackPossibility({
    snapshot: "oikos-aaaaaaaa",
    storageTypes: ["zfspool"],
    listed,
    subject: "lxc:gitea",
  });
  assert.deepEqual(verdict, {
    possible: false,
    code: "not_newest",
    reason:
      "lxc:gitea is on ZFS, which rolls back only to its most recent snapshot, and oikos-aaaaaaaa is not: oikos-bbbbbbbb is newer",
    newer: ["oikos-bbbbbbbb"],
    newest: "oikos-bbbbbbbb",
  });
  const older = rollbackPossibility({
    snapshot: "before-upgrade",
    storageTypes: ["zfs"],
    listed,
    subject: "tank/data",
  });
  assert.ok(
    !older.possible && older.code === "not_newest" && older.newer.join() === "oikos-aaaaaaaa,oikos-bbbbbbbb",
  );
  assert.deepEqual(
    rollbackPossibility({
      snapshot: "oikos-bbbbbbbb",
      storageTypes: ["zfspool"],
      listed,
      subject: "lxc:gitea",
    }),
    { possible: true },
  );
});

test("one disk on ZFS is enough to refuse; LVM-thin, RBD, qcow2 keep the tree", () => {
  assert.equal(
    rollbackPossibility({
      snapshot: "oikos-aaaaaaaa",
      storageTypes: ["lvmthin", "zfspool"],
      listed,
      subject: "vm:x",
    }).possible,
    false,
  );
  for (const type of ["lvmthin", "rbd", "dir", "nfs", "btrfs", null])
    assert.deepEqual(
      rollbackPossibility({ snapshot: "before-upgrade", storageTypes: [type], listed, subject: "vm:x" }),
      { possible: true },
      String(type),
    );
});

test("a snapshot that is no longer listed cannot be rolled back to, whatever the storage", () => {
  const verdict = rollbackPossibility({
    snapshot: "oikos-cccccccc",
    storageTypes: ["lvmthin"],
    listed,
    subject: "lxc:wiki",
  });
  assert.ok(!verdict.possible && verdict.code === "missing");
  assert.match(verdict.reason, /no longer exists/);
});

test("two snapshots in the same second: PVE's snapshot tree (parent) says which is newer", () => {
  const sameSecond = [
    { name: "oikos-aaaaaaaa", takenAt: 500 },
    { name: "oikos-bbbbbbbb", takenAt: 500, parent: "oikos-aaaaaaaa" },
    { name: "current", parent: "oikos-bbbbbbbb" },
  ];
  const older = rollbackPossibility({
    snapshot: "oikos-aaaaaaaa",
    storageTypes: ["zfspool"],
    listed: sameSecond,
    subject: "lxc:gitea",
  });
  assert.equal(older.possible, false);
  assert.deepEqual(older.possible ? [] : older.code === "not_newest" ? older.newer : [], ["oikos-bbbbbbbb"]);
  const newest = rollbackPossibility({
    snapshot: "oikos-bbbbbbbb",
    storageTypes: ["zfspool"],
    listed: sameSecond,
    subject: "lxc:gitea",
  });
  assert.deepEqual(newest, { possible: true });
  // listed in another order, the same answer; a parent loop does not hang it
  const loop = [
    { name: "x", takenAt: 1, parent: "y" },
    { name: "y", takenAt: 1, parent: "x" },
  ];
  assert.equal(
    rollbackPossibility({ snapshot: "x", storageTypes: ["zfspool"], listed: loop, subject: "s" }).possible,
    false,
  );
});
