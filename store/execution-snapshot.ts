import { z } from "zod";

/**
 * What happened about a snapshot before an execution (executions.snapshot, migration 0140): taken
 * (where, so rollback and retention find it), or none and why. Null when it does not apply (a
 * read-only command, a target that is not a Proxmox guest).
 */
const marks = {
  /** Set once an operator rolled back to it. */
  rolledBackAt: z.string().optional(),
  rolledBackBy: z.string().optional(),
  /** Set when the retention sweep removed it (rollback is no longer possible). */
  removedAt: z.string().optional(),
};

/** `pct snapshot` / `qm snapshot` of a Proxmox guest, through its node. */
const guestSnapshotSchema = z.object({
  state: z.literal("taken"),
  name: z.string(),
  tool: z.enum(["pct", "qm"]),
  vmid: z.number().int().positive(),
  /** The guest's entity and the node entity the snapshot was taken through. */
  guest: z.string(),
  node: z.string(),
  wasRunning: z.boolean(),
  takenAt: z.string(),
  ...marks,
});

/** `zfs snapshot <dataset>@<name> …` (one atomic snapshot of each dataset) on a plain host. */
const datasetSnapshotSchema = z.object({
  state: z.literal("taken"),
  name: z.string(),
  tool: z.literal("zfs"),
  datasets: z.array(z.string()).min(1),
  /** The host entity the datasets are on (the execution's target). */
  host: z.string(),
  takenAt: z.string(),
  ...marks,
});

/**
 * What happened about a snapshot before an execution (executions.snapshot, migration 0140): taken
 * (where, so rollback and retention find it), or none and why. Null when it does not apply (a
 * read-only command, a target that is neither a Proxmox guest nor a host whose ZFS datasets it touches).
 */
export const executionSnapshotSchema = z.union([
  guestSnapshotSchema,
  datasetSnapshotSchema,
  z.object({
    state: z.literal("none"),
    code: z.enum([
      "no_disks",
      "unknown_storage",
      "storage_cannot_snapshot",
      "disabled",
      "failed",
      "cannot_protect",
      "too_many_datasets",
    ]),
    reason: z.string(),
    /** The snapshot failed and the change waits: the approval asking whether to run it without one. */
    asked: z.string().optional(),
    /** The operator who let it run without a snapshot (approved that approval). */
    waivedBy: z.string().optional(),
  }),
]);
export type ExecutionSnapshot = z.infer<typeof executionSnapshotSchema>;
export type TakenSnapshot = Extract<ExecutionSnapshot, { state: "taken" }>;
export type GuestSnapshot = z.infer<typeof guestSnapshotSchema>;
export type DatasetSnapshot = z.infer<typeof datasetSnapshotSchema>;

/** What a snapshot is of, as the card, the typed phrase and the audit name it: the guest, or the datasets. */
export function snapshotSubject(snapshot: TakenSnapshot): string {
  return snapshot.tool === "zfs" ? snapshot.datasets.join(" ") : snapshot.guest;
}

/** Its name as the tool shows it: `oikos-1a2b3c4d`, or `tank/data@oikos-1a2b3c4d` (first dataset). */
export function snapshotLabel(snapshot: TakenSnapshot): string {
  return snapshot.tool === "zfs" ? `${snapshot.datasets[0]}@${snapshot.name}` : snapshot.name;
}

/** The execution's snapshot record, or null (none recorded, or a shape this version does not know). */
export function readExecutionSnapshot(value: unknown): ExecutionSnapshot | null {
  const parsed = executionSnapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
