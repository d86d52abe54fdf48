/**
 * Whether Proxmox can snapshot a guest, from the storage type of each of its disks. PVE snapshots a
 * guest only when every volume supports it: ZFS, LVM-thin, Ceph RBD and btrfs always do; a directory,
 * NFS, CIFS or GlusterFS storage only for qcow2 images (so never for a container's raw rootfs); plain
 * (thick) LVM and iSCSI LUNs never.
 */

/** Storage plugin types whose volumes snapshot whatever their format. */
export const SNAPSHOT_STORAGE_TYPES = ["zfspool", "zfs", "lvmthin", "rbd", "btrfs"] as const;
/** Storage plugin types that hold image files: snapshots only for qcow2. */
export const FILE_STORAGE_TYPES = ["dir", "nfs", "cifs", "glusterfs", "cephfs"] as const;

export interface DiskOnStorage {
  key: string;
  storage: string;
  /** The storage's plugin type, or null when discovery did not see the storage. */
  storageType: string | null;
  format: "qcow2" | "raw" | "subvol" | "other";
}

/** Why a guest cannot be snapshotted (closed: the card and the execution record name it). */
export type SnapshotIncapability = "no_disks" | "unknown_storage" | "storage_cannot_snapshot";

export type SnapshotCapability =
  | { capable: true }
  | { capable: false; code: SnapshotIncapability; reason: string };

export function snapshotCapability(disks: readonly DiskOnStorage[]): SnapshotCapability {
  if (disks.length === 0) {
    return { capable: false, code: "no_disks", reason: "discovery recorded no disks for this guest" };
  }
  for (const disk of disks) {
    if (disk.storageType === null) {
      return {
        capable: false,
        code: "unknown_storage",
        reason: `the storage ${disk.storage} of ${disk.key} is unknown (run oikos import proxmox again)`,
      };
    }
    if (!diskCanSnapshot(disk.storageType, disk.format)) {
      return {
        capable: false,
        code: "storage_cannot_snapshot",
        reason: `${disk.key} is on ${disk.storage} (${disk.storageType}${disk.format === "qcow2" ? "" : `, ${disk.format}`}), which cannot snapshot`,
      };
    }
  }
  return { capable: true };
}

function diskCanSnapshot(storageType: string, format: DiskOnStorage["format"]): boolean {
  if ((SNAPSHOT_STORAGE_TYPES as readonly string[]).includes(storageType)) return true;
  if ((FILE_STORAGE_TYPES as readonly string[]).includes(storageType)) return format === "qcow2";
  return false;
}
