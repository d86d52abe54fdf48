import { z } from "zod";
import type { Executor } from "./audit.ts";

/**
 * What happened about a snapshot before an execution (executions.snapshot, migration 0140): taken
 * (where, so rollback and retention find it), or none and why. Null when it does not apply (a
 * read-only command, a target that is not a Proxmox guest).
 */
export const executionSnapshotSchema = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("taken"),
    name: z.string(),
    tool: z.enum(["pct", "qm"]),
    vmid: z.number().int().positive(),
    /** The guest's entity and the node entity the snapshot was taken through. */
    guest: z.string(),
    node: z.string(),
    wasRunning: z.boolean(),
    takenAt: z.string(),
    /** Set once an operator rolled the guest back to it. */
    rolledBackAt: z.string().optional(),
    rolledBackBy: z.string().optional(),
    /** Set when the retention sweep removed it (rollback is no longer possible). */
    removedAt: z.string().optional(),
  }),
  z.object({
    state: z.literal("none"),
    code: z.enum(["no_disks", "unknown_storage", "storage_cannot_snapshot", "disabled", "failed"]),
    reason: z.string(),
  }),
]);
export type ExecutionSnapshot = z.infer<typeof executionSnapshotSchema>;
export type TakenSnapshot = Extract<ExecutionSnapshot, { state: "taken" }>;

export async function recordExecutionSnapshot(
  db: Executor,
  executionId: string,
  snapshot: ExecutionSnapshot,
): Promise<void> {
  await db
    .updateTable("executions")
    .set({ snapshot: JSON.stringify(executionSnapshotSchema.parse(snapshot)) })
    .where("id", "=", executionId)
    .execute();
}

/** The execution's snapshot record, or null (none recorded, or a shape this version does not know). */
export function readExecutionSnapshot(value: unknown): ExecutionSnapshot | null {
  const parsed = executionSnapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
