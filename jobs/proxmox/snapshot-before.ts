import { z } from "zod";
import {
  decideSnapshotBefore,
  type SnapshotBeforeMode,
  type SnapshotFailureMode,
  snapshotName,
} from "../../policy/snapshot-before.ts";
import type { DiskOnStorage } from "../../policy/snapshot-capability.ts";
import { getApproval } from "../../store/approvals.ts";
import type { Db } from "../../store/db.ts";
import type { Entity } from "../../store/entities.ts";
import { type ExecutionSnapshot, readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { type Execution, recordExecutionSnapshot } from "../../store/executions.ts";
import { shellQuote } from "../ssh/shell-quote.ts";
import type { Target } from "../ssh/target.ts";
import { snapshotDatasetsBefore } from "./dataset-snapshot.ts";
import { lastLine, type NodeRunner } from "./node-runner.ts";

export interface SnapshotBeforeConfig {
  /** `execution.snapshotBefore`. */
  mode: SnapshotBeforeMode;
  /** `execution.snapshotFailure`: a failed snapshot makes the change wait for the operator (ask, default) or not. */
  onFailure?: SnapshotFailureMode;
  /** How long the operator has to decide whether it runs without a snapshot (execution.approvalTtlMs). */
  approvalTtlMs?: number;
  /** `execution.snapshotBeforeEntities`: per entity slug, overrides `mode`. */
  perEntity?: Record<string, SnapshotBeforeMode>;
}

export interface SnapshotBeforeDeps {
  db: Db;
  runner: NodeRunner;
  config: SnapshotBeforeConfig;
  redact: (text: string) => string;
}

const disksSchema = z.array(
  z.object({
    key: z.string(),
    storage: z.string(),
    storage_type: z.string().nullable(),
    format: z.enum(["qcow2", "raw", "subvol", "other"]),
  }),
);

/** The guest's disks as discovery recorded them (`proxmox.disks`); none when never discovered. */
export function recordedDisks(entity: Entity): DiskOnStorage[] {
  const parsed = disksSchema.safeParse(entity.attributes["proxmox.disks"]);
  if (!parsed.success) return [];
  return parsed.data.map((d) => ({
    key: d.key,
    storage: d.storage,
    storageType: d.storage_type,
    format: d.format,
  }));
}

/**
 * Before an approved change on a Proxmox guest: decide (policy/snapshot-before.ts), then on the
 * guest's node read whether it runs and take `pct snapshot` / `qm snapshot` named after the
 * execution with a description naming the task. The outcome is recorded on the execution either
 * way. A failed snapshot makes the change wait for the operator (the worker asks, store/snapshot-waiver.ts)
 * unless execution.snapshotFailure is `run`; once they let it run without one, the record says who.
 * Returns null when a snapshot does not apply (read-only, not a guest and no ZFS dataset of a host:
 * jobs/proxmox/dataset-snapshot.ts).
 */
export async function snapshotBeforeExecution(
  deps: SnapshotBeforeDeps,
  row: Execution,
  target: Target,
  entity: Entity,
): Promise<ExecutionSnapshot | null> {
  // The operator let this change run without a snapshot (the card of the approval the failure asked).
  const earlier = readExecutionSnapshot(row.snapshot);
  if (earlier?.state === "none" && earlier.asked !== undefined && earlier.asked === row.approval_id) {
    const approval = await getApproval(deps.db, earlier.asked);
    const waived = { ...earlier, waivedBy: approval?.decided_by ?? "an operator" };
    await recordExecutionSnapshot(deps.db, row.id, waived);
    return waived;
  }
  const mode = deps.config.perEntity?.[entity.slug] ?? deps.config.mode;
  const decision = decideSnapshotBefore({
    risk: row.risk,
    mode,
    transport: target.transport,
    disks: recordedDisks(entity),
  });
  if (decision.kind === "not_applicable") {
    // not a guest: a host whose ZFS datasets the change touches is snapshotted by dataset
    const datasets = await snapshotDatasetsBefore(deps, row, target, entity);
    if (datasets) await recordExecutionSnapshot(deps.db, row.id, datasets);
    return datasets;
  }
  let snapshot: ExecutionSnapshot;
  if (decision.kind === "skip") {
    snapshot = { state: "none", code: decision.code, reason: decision.reason };
  } else if (target.via === undefined || target.vmid === undefined) {
    snapshot = { state: "none", code: "failed", reason: "the guest has no node or vmid to snapshot through" };
  } else {
    snapshot = await take(deps, row, decision.tool, target.via, target.vmid, entity.slug);
  }
  await recordExecutionSnapshot(deps.db, row.id, snapshot);
  return snapshot;
}

async function take(
  deps: SnapshotBeforeDeps,
  row: Execution,
  tool: "pct" | "qm",
  node: Target,
  vmid: number,
  guest: string,
): Promise<ExecutionSnapshot> {
  const name = snapshotName(row.id);
  const run = (command: string) => deps.runner.exec(node, command, { timeoutMs: 300_000 });
  try {
    const status = await run(`${tool} status ${vmid}`);
    const wasRunning = status.exitCode === 0 && /^status:\s*running\s*$/m.test(status.stdout);
    const description = deps
      .redact(`oikos before execution ${row.id}: ${row.purpose || row.command}`)
      .slice(0, 200);
    const result = await run(`${tool} snapshot ${vmid} ${name} --description ${shellQuote(description)}`);
    if (result.exitCode !== 0 || result.timedOut) {
      const why = lastLine(result.stderr) ?? (result.timedOut ? "timed out" : `exit ${result.exitCode}`);
      return { state: "none", code: "failed", reason: deps.redact(`${tool} snapshot failed: ${why}`) };
    }
    return {
      state: "taken",
      name,
      tool,
      vmid,
      guest,
      node: node.slug,
      wasRunning,
      takenAt: new Date().toISOString(),
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { state: "none", code: "failed", reason: deps.redact(`${tool} snapshot failed: ${why}`) };
  }
}
