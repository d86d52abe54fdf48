import type { RunnableRisk } from "./decide-run.ts";
import { type DiskOnStorage, type SnapshotIncapability, snapshotCapability } from "./snapshot-capability.ts";

/**
 * When oikos snapshots a guest before changing it (`execution.snapshotBefore`, per entity too):
 * `destructive` (the default) before destructive executions, `mutating` before config changes as
 * well, `off` never.
 */
export const SNAPSHOT_BEFORE_MODES = ["destructive", "mutating", "off"] as const;
export type SnapshotBeforeMode = (typeof SNAPSHOT_BEFORE_MODES)[number];

/**
 * What happens when the snapshot before a change fails (a `vzdump` holds the guest's lock, the pool is
 * full …): `ask` (the default) — the change waits and the operator decides on a card whether it runs
 * without a snapshot; `run` — it runs unprotected and its card says so.
 */
export const SNAPSHOT_FAILURE_MODES = ["ask", "run"] as const;
export type SnapshotFailureMode = (typeof SNAPSHOT_FAILURE_MODES)[number];

/** Whether a change whose snapshot failed waits for the operator (it has not been waived already). */
export function waitsForOperator(
  mode: SnapshotFailureMode,
  snapshot: { state: string; code?: string; waivedBy?: string } | null,
): boolean {
  return mode === "ask" && snapshot?.state === "none" && snapshot.code === "failed" && !snapshot.waivedBy;
}

/** Why an execution on a guest ran without a snapshot (closed: the execution record and cards carry it). */
export type NoSnapshotCode = SnapshotIncapability | "disabled" | "failed";

export interface SnapshotFacts {
  risk: RunnableRisk;
  mode: SnapshotBeforeMode;
  /** The target's transport: only guests reached through their node (pct-exec, qm-guest-exec) snapshot. */
  transport: string;
  disks: readonly DiskOnStorage[];
}

export type SnapshotDecision =
  /** Nothing to say: a read-only command, or a target that is not a Proxmox guest. */
  | { kind: "not_applicable" }
  | { kind: "skip"; code: NoSnapshotCode; reason: string }
  | { kind: "take"; tool: "pct" | "qm" };

export function decideSnapshotBefore(facts: SnapshotFacts): SnapshotDecision {
  if (facts.risk === "read_only") return { kind: "not_applicable" };
  const tool = facts.transport === "pct-exec" ? "pct" : facts.transport === "qm-guest-exec" ? "qm" : null;
  if (tool === null) return { kind: "not_applicable" };
  if (facts.mode === "off" || (facts.mode === "destructive" && facts.risk !== "destructive")) {
    return {
      kind: "skip",
      code: "disabled",
      reason:
        facts.mode === "off"
          ? "snapshots before changes are off for this target"
          : "snapshots are taken before destructive changes only (execution.snapshotBefore: mutating to include config changes)",
    };
  }
  const capability = snapshotCapability(facts.disks);
  if (!capability.capable) return { kind: "skip", code: capability.code, reason: capability.reason };
  return { kind: "take", tool };
}

/**
 * `oikos-<first 8 hex of the execution id>`: PVE snapshot names start with a letter and hold letters,
 * digits, `-` and `_`; the prefix is what the retention sweep and rollback recognise as ours.
 */
export function snapshotName(executionId: string): string {
  const hex = executionId.replace(/^ex-/, "").replace(/[^A-Za-z0-9]/g, "");
  return `${OIKOS_SNAPSHOT_PREFIX}${hex.slice(0, 8)}`;
}

export const OIKOS_SNAPSHOT_PREFIX = "oikos-";

/** Whether a snapshot name is one oikos took (and so one its retention sweep may remove). */
export function isOikosSnapshot(name: string): boolean {
  return /^oikos-[0-9a-f]{8}$/.test(name);
}
