import {
  type DatasetSnapshotDecision,
  datasetTouch,
  decideDatasetSnapshot,
  parseZfsMounts,
  type ZfsMount,
} from "../../policy/dataset-snapshot.ts";
import { type SnapshotBeforeMode, snapshotName } from "../../policy/snapshot-before.ts";
import type { Entity } from "../../store/entities.ts";
import type { ExecutionSnapshot } from "../../store/execution-snapshot.ts";
import type { Execution } from "../../store/executions.ts";
import type { Target } from "../ssh/target.ts";
import { lastLine, type NodeRunner } from "./node-runner.ts";

export interface DatasetSnapshotDeps {
  runner: NodeRunner;
  /** `execution.snapshotBefore` and its per-entity overrides. */
  config: { mode: SnapshotBeforeMode; perEntity?: Record<string, SnapshotBeforeMode> };
  redact: (text: string) => string;
}

/** `zfs list` of the mounted filesystems: the datasets a path can be on. */
export const ZFS_MOUNTS_COMMAND = "zfs list -H -o name,mountpoint,mounted -t filesystem";

/**
 * Before an approved change on a plain host: the ZFS datasets whose files it touches
 * (policy/dataset-snapshot.ts decides, from the command's parse and the host's mounted datasets read
 * with a read-only `zfs list`), snapshotted at once with `zfs snapshot <ds>@oikos-<id> …`. Returns
 * null when no dataset is involved (no absolute path on one, no `zfs` on the host), else the outcome
 * to record: taken, or none and why (disabled, cannot protect, failed).
 */
export async function snapshotDatasetsBefore(
  deps: DatasetSnapshotDeps,
  row: Execution,
  target: Target,
  entity: Entity,
): Promise<ExecutionSnapshot | null> {
  // a rollback to oikos's own snapshot is the undo itself: nothing to snapshot or to say
  if (row.risk === "read_only" || row.rollback_of) return null;
  // The bash grammar is loaded by the first change on a host, not by an idle worker.
  const { loadBashParser } = await import("../../policy/bash-parser.ts");
  const parser = await loadBashParser();
  const parsed = parser.parse(row.command);
  const mode = deps.config.perEntity?.[entity.slug] ?? deps.config.mode;
  const facts = {
    risk: row.risk,
    mode,
    transport: target.transport,
    touch: datasetTouch(parsed, (source) => parser.parse(source)),
  };
  let decision: DatasetSnapshotDecision = decideDatasetSnapshot({ ...facts, mounts: "not_read" });
  if (decision.kind === "read_mounts") {
    decision = decideDatasetSnapshot({ ...facts, mounts: await readMounts(deps, target) });
  }
  switch (decision.kind) {
    case "not_applicable":
    case "read_mounts":
      return null;
    case "skip":
      return { state: "none", code: decision.code, reason: decision.reason };
    case "take":
      return take(deps, row, target, entity.slug, decision.datasets);
  }
}

/** The host's mounted datasets; null when it has no working `zfs` (not installed, no module). */
async function readMounts(deps: DatasetSnapshotDeps, target: Target): Promise<ZfsMount[] | null> {
  try {
    const result = await deps.runner.exec(target, ZFS_MOUNTS_COMMAND, { timeoutMs: 60_000 });
    return result.exitCode === 0 && !result.timedOut ? parseZfsMounts(result.stdout) : null;
  } catch {
    return null;
  }
}

async function take(
  deps: DatasetSnapshotDeps,
  row: Execution,
  target: Target,
  host: string,
  datasets: string[],
): Promise<ExecutionSnapshot> {
  const name = snapshotName(row.id);
  // one command: ZFS takes the snapshots of all the datasets atomically
  const command = `zfs snapshot ${datasets.map((dataset) => `${dataset}@${name}`).join(" ")}`;
  try {
    const result = await deps.runner.exec(target, command, { timeoutMs: 300_000 });
    if (result.exitCode !== 0 || result.timedOut) {
      const why = lastLine(result.stderr) ?? (result.timedOut ? "timed out" : `exit ${result.exitCode}`);
      return { state: "none", code: "failed", reason: deps.redact(`zfs snapshot failed: ${why}`) };
    }
    return { state: "taken", tool: "zfs", name, datasets, host, takenAt: new Date().toISOString() };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { state: "none", code: "failed", reason: deps.redact(`zfs snapshot failed: ${why}`) };
  }
}
