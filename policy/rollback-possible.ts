/**
 * Whether Proxmox (or ZFS) will roll back to a snapshot, known before anyone types a phrase. On ZFS a
 * rollback goes to the most recent snapshot only: PVE's ZFS plugin refuses an older one ("can't
 * rollback, 'x' is not most recent snapshot on 'local-zfs:…'"), and `zfs rollback` without `-r`
 * refuses while newer snapshots exist (with `-r` it would destroy them — oikos never passes it).
 * LVM-thin, Ceph RBD and qcow2 keep the snapshot tree and roll back to any snapshot. Pure.
 */

/** Storage plugin types that roll back to the most recent snapshot only. */
export const NEWEST_ONLY_STORAGE_TYPES = ["zfspool", "zfs"] as const;

export interface ListedSnapshot {
  name: string;
  /** Unix seconds (PVE `snaptime`, ZFS `creation`); unknown for PVE's `current` pseudo-entry. */
  takenAt?: number;
  /** PVE's snapshot tree: the snapshot this one was taken on top of (tells apart two in one second). */
  parent?: string;
}

export type RollbackPossibility =
  | { possible: true }
  /** The snapshot is gone (removed by hand, or never there): nothing to roll back to. */
  | { possible: false; code: "missing"; reason: string }
  /** Newer snapshots stand in the way: what they are, and the newest one (what a rollback can reach). */
  | { possible: false; code: "not_newest"; reason: string; newer: string[]; newest: string };

/**
 * `storageTypes`: the plugin types of the guest's disks, or `["zfs"]` for datasets on a host;
 * `listed`: the snapshots as the tool lists them (PVE's `current` is left out).
 */
export function rollbackPossibility(input: {
  snapshot: string;
  storageTypes: readonly (string | null)[];
  listed: readonly ListedSnapshot[];
  /** What is rolled back, in the words of the reason: `lxc:gitea`, `tank/data`. */
  subject: string;
}): RollbackPossibility {
  const listed = input.listed.filter((s) => s.name !== "current");
  const target = listed.find((s) => s.name === input.snapshot);
  if (!target) {
    return {
      possible: false,
      code: "missing",
      reason: `snapshot ${input.snapshot} of ${input.subject} no longer exists (removed outside oikos)`,
    };
  }
  const newestOnly = input.storageTypes.some((type) =>
    (NEWEST_ONLY_STORAGE_TYPES as readonly (string | null)[]).includes(type),
  );
  if (!newestOnly) return { possible: true };
  // newer: taken later, or in the same second on top of it (snaptime has whole seconds)
  const depth = ancestryDepths(listed);
  const later = (a: ListedSnapshot, b: ListedSnapshot) =>
    (a.takenAt ?? 0) - (b.takenAt ?? 0) || (depth.get(a.name) ?? 0) - (depth.get(b.name) ?? 0);
  const newer = listed
    .filter(
      (s) =>
        s.name !== target.name &&
        ((s.takenAt ?? 0) > (target.takenAt ?? 0) ||
          ((s.takenAt ?? 0) === (target.takenAt ?? 0) && descendsFrom(listed, s, target.name))),
    )
    .sort(later);
  if (newer.length === 0) return { possible: true };
  const newest = newer.at(-1)!.name;
  return {
    possible: false,
    code: "not_newest",
    reason: `${input.subject} is on ZFS, which rolls back only to its most recent snapshot, and ${input.snapshot} is not: ${newer.map((s) => s.name).join(", ")} ${newer.length === 1 ? "is" : "are"} newer`,
    newer: newer.map((s) => s.name),
    newest,
  };
}

/** How many ancestors each snapshot has in the tree its `parent` links make. */
function ancestryDepths(listed: readonly ListedSnapshot[]): Map<string, number> {
  const byName = new Map(listed.map((s) => [s.name, s]));
  const depths = new Map<string, number>();
  for (const snapshot of listed) {
    let depth = 0;
    const seen = new Set<string>([snapshot.name]);
    for (let at = snapshot.parent; at !== undefined && !seen.has(at); at = byName.get(at)?.parent) {
      seen.add(at);
      depth++;
    }
    depths.set(snapshot.name, depth);
  }
  return depths;
}

/** Whether `ancestor` is on `snapshot`'s parent chain. */
function descendsFrom(
  listed: readonly ListedSnapshot[],
  snapshot: ListedSnapshot,
  ancestor: string,
): boolean {
  const byName = new Map(listed.map((s) => [s.name, s]));
  const seen = new Set<string>([snapshot.name]);
  for (let at = snapshot.parent; at !== undefined && !seen.has(at); at = byName.get(at)?.parent) {
    if (at === ancestor) return true;
    seen.add(at);
  }
  return false;
}
