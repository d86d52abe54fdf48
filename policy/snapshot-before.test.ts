import assert from "node:assert/strict";
import { test } from "node:test";
import { decideSnapshotBefore, isOikosSnapshot, snapshotName, waitsForOperator } from "./snapshot-before.ts";
import type { DiskOnStorage } from "./snapshot-capability.ts";

const zfs: DiskOnStorage[] = [
  { key: "rootfs", storage: "local-zfs", storageType: "zfspool", format: "subvol" },
];
const dir: DiskOnStorage[] = [{ key: "rootfs", storage: "local", storageType: "dir", format: "raw" }];

test("read-only commands and targets that are not guests never snapshot", () => {
  assert.deepEqual(
    decideSnapshotBefore({ risk: "read_only", mode: "mutating", transport: "pct-exec", disks: zfs }),
    { kind: "not_applicable" },
  );
  for (const transport of ["ssh", "local", "none"]) {
    assert.deepEqual(decideSnapshotBefore({ risk: "destructive", mode: "mutating", transport, disks: zfs }), {
      kind: "not_applicable",
    });
  }
});

test("the mode decides which risks snapshot; the tool follows the transport", () => {
  const take = (
    risk: "config_mutation" | "destructive",
    mode: "destructive" | "mutating" | "off",
    transport = "pct-exec",
  ) => decideSnapshotBefore({ risk, mode, transport, disks: zfs });
  assert.deepEqual(take("destructive", "destructive"), { kind: "take", tool: "pct" });
  assert.deepEqual(take("destructive", "mutating", "qm-guest-exec"), { kind: "take", tool: "qm" });
  assert.deepEqual(take("config_mutation", "mutating"), { kind: "take", tool: "pct" });
  const skipped = take("config_mutation", "destructive");
  assert.equal(skipped.kind === "skip" && skipped.code, "disabled");
  const off = take("destructive", "off");
  assert.equal(off.kind === "skip" && off.code, "disabled");
});

test("a guest on storage that cannot snapshot is skipped with the storage as the reason", () => {
  const decision = decideSnapshotBefore({
    risk: "destructive",
    mode: "destructive",
    transport: "pct-exec",
    disks: dir,
  });
  assert.equal(decision.kind === "skip" && decision.code, "storage_cannot_snapshot");
  assert.match(decision.kind === "skip" ? decision.reason : "", /rootfs is on local \(dir, raw\)/);
});

test("snapshot names: oikos- and 8 hex of the execution id; only those count as ours", () => {
  assert.equal(snapshotName("ex-0123456789ab"), "oikos-01234567");
  assert.ok(isOikosSnapshot("oikos-01234567"));
  for (const other of ["before-upgrade", "oikos-manual", "oikos-0123456789", "xoikos-01234567", "current"]) {
    assert.equal(isOikosSnapshot(other), false, other);
  }
});

test("a failed snapshot waits for the operator under ask, not once waived, never under run", () => {
  const failed = { state: "none", code: "failed", reason: "CT is locked (backup)" };
  assert.equal(waitsForOperator("ask", failed), true);
  assert.equal(waitsForOperator("ask", { ...failed, waivedBy: "@alice" }), false);
  assert.equal(waitsForOperator("run", failed), false);
  assert.equal(
    waitsForOperator("ask", { state: "none", code: "storage_cannot_snapshot" }),
    false,
    "no snapshot was tried",
  );
  assert.equal(waitsForOperator("ask", { state: "taken" }), false);
  assert.equal(waitsForOperator("ask", null), false);
});
