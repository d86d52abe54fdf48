import assert from "node:assert/strict";
import { test } from "node:test";
import { type DiskOnStorage, snapshotCapability } from "./snapshot-capability.ts";

const disk = (
  storageType: string | null,
  format: DiskOnStorage["format"],
  key = "rootfs",
): DiskOnStorage => ({
  key,
  storage: storageType ? `s-${storageType}` : "gone",
  storageType,
  format,
});

test("ZFS, LVM-thin, Ceph RBD and btrfs snapshot whatever the format", () => {
  for (const type of ["zfspool", "zfs", "lvmthin", "rbd", "btrfs"]) {
    for (const format of ["raw", "subvol", "qcow2", "other"] as const) {
      assert.deepEqual(snapshotCapability([disk(type, format)]), { capable: true }, `${type} ${format}`);
    }
  }
});

test("file storages snapshot qcow2 images only; thick LVM and iSCSI never", () => {
  for (const type of ["dir", "nfs", "cifs", "glusterfs", "cephfs"]) {
    assert.deepEqual(snapshotCapability([disk(type, "qcow2", "scsi0")]), { capable: true });
    const raw = snapshotCapability([disk(type, "raw", "scsi0")]);
    assert.equal(raw.capable, false);
    assert.equal(raw.capable === false && raw.code, "storage_cannot_snapshot");
    assert.match(
      raw.capable === false ? raw.reason : "",
      new RegExp(`scsi0 is on s-${type} \\(${type}, raw\\)`),
    );
  }
  for (const type of ["lvm", "iscsi", "iscsidirect"]) {
    assert.equal(snapshotCapability([disk(type, "raw")]).capable, false, type);
  }
});

test("every disk must support it: one raw disk beside ZFS refuses the guest", () => {
  const result = snapshotCapability([disk("zfspool", "subvol"), disk("nfs", "raw", "mp0")]);
  assert.deepEqual(result.capable === false && [result.code, result.reason], [
    "storage_cannot_snapshot",
    "mp0 is on s-nfs (nfs, raw), which cannot snapshot",
  ]);
});

test("no disks recorded or an unknown storage is a reason, not a guess", () => {
  const none = snapshotCapability([]);
  assert.equal(none.capable === false && none.code, "no_disks");
  const unknown = snapshotCapability([disk(null, "raw")]);
  assert.equal(unknown.capable === false && unknown.code, "unknown_storage");
});
