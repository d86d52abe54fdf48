import { isOikosSnapshot } from "../../policy/snapshot-before.ts";
import type { Db } from "../../store/db.ts";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { executionsWithSnapshot, recordExecutionSnapshot } from "../../store/executions.ts";
import { snapshotListSchema } from "../../store/import/proxmox-api.ts";
import { resolveTarget, type TargetDefaults } from "../execution/target-resolver.ts";
import type { SweepItem } from "../sweeps/registry.ts";
import { sweepItem } from "../sweeps/registry.ts";
import type { NodeRunner } from "./node-runner.ts";
import { pveshGet } from "./read-cluster.ts";

export interface RetentionDeps {
  db: Db;
  runner: NodeRunner;
  targets: TargetDefaults;
  /** oikos snapshots older than this are removed; 0 keeps them all. */
  retentionDays: number;
  now: Date;
}

/**
 * The snapshot retention sweep: on every guest oikos ever snapshotted, list the snapshots Proxmox
 * has (`pvesh get /nodes/{node}/{lxc|qemu}/{vmid}/snapshot`) and remove with `pct`/`qm delsnapshot`
 * those named like ours (`oikos-` + 8 hex, policy/snapshot-before.ts) and older than the retention —
 * never any other snapshot; on every host whose ZFS datasets oikos snapshotted, the same with `zfs`.
 * The executions they belonged to say so (rollback is no longer offered).
 * Returns one item per snapshot removed (or that could not be).
 */
export async function sweepOikosSnapshots(deps: RetentionDeps): Promise<SweepItem[]> {
  if (deps.retentionDays <= 0) return [];
  const cutoff = deps.now.getTime() - deps.retentionDays * 86_400_000;
  const rows = await executionsWithSnapshot(deps.db);
  const guests = new Set<string>();
  const datasets = new Map<string, Set<string>>();
  for (const row of rows) {
    const snapshot = readExecutionSnapshot(row.snapshot);
    if (snapshot?.state !== "taken" || snapshot.removedAt) continue;
    if (snapshot.tool !== "zfs") guests.add(snapshot.guest);
    else {
      const onHost = datasets.get(snapshot.host) ?? new Set<string>();
      for (const dataset of snapshot.datasets) onHost.add(dataset);
      datasets.set(snapshot.host, onHost);
    }
  }
  const items: SweepItem[] = [];
  for (const guest of [...guests].sort()) {
    const resolved = await resolveTarget(deps.db, guest, deps.targets);
    if (!resolved.ok || !resolved.target.via || resolved.target.vmid === undefined) continue;
    const { via, vmid } = resolved.target;
    const kind = resolved.target.transport === "pct-exec" ? "lxc" : "qemu";
    const tool = kind === "lxc" ? "pct" : "qm";
    const node = resolved.entity.attributes["proxmox.node"];
    if (typeof node !== "string") continue;
    const read = async (command: string) => {
      const result = await deps.runner.exec(via, command, { timeoutMs: 60_000 });
      if (result.exitCode !== 0)
        throw new Error(`${command}: exit ${result.exitCode}: ${result.stderr.trim()}`);
      return result.stdout;
    };
    let listed: Awaited<ReturnType<typeof pveshGet<typeof snapshotListSchema>>>;
    try {
      listed = await pveshGet(read, `/nodes/${node}/${kind}/${vmid}/snapshot`, snapshotListSchema);
    } catch (error) {
      items.push({
        subject: guest,
        outcome: "failed",
        detail: error instanceof Error ? error.message : String(error),
      });
      continue;
    }
    for (const snapshot of listed) {
      if (!isOikosSnapshot(snapshot.name) || snapshot.snaptime === undefined) continue;
      if (snapshot.snaptime * 1000 >= cutoff) continue;
      const item = await sweepItem(`${guest}@${snapshot.name}`, async () => {
        await read(`${tool} delsnapshot ${vmid} ${snapshot.name}`);
        await markRemoved(deps, { guest }, snapshot.name);
        return `removed (taken ${new Date(snapshot.snaptime! * 1000).toISOString()}, older than ${deps.retentionDays} days)`;
      });
      if (item) items.push(item);
    }
  }
  for (const [host, names] of [...datasets].sort(([a], [b]) => a.localeCompare(b))) {
    items.push(...(await sweepDatasetSnapshots(deps, host, [...names].sort(), cutoff)));
  }
  return items;
}

/**
 * The same for ZFS datasets on a host: `zfs list -H -p -t snapshot -o name,creation <datasets>` and
 * `zfs destroy <dataset>@<name>` for those named like ours and older than the retention.
 */
async function sweepDatasetSnapshots(
  deps: RetentionDeps,
  host: string,
  datasets: string[],
  cutoff: number,
): Promise<SweepItem[]> {
  const resolved = await resolveTarget(deps.db, host, deps.targets);
  if (!resolved.ok) return [];
  const read = async (command: string) => {
    const result = await deps.runner.exec(resolved.target, command, { timeoutMs: 60_000 });
    if (result.exitCode !== 0)
      throw new Error(`${command}: exit ${result.exitCode}: ${result.stderr.trim()}`);
    return result.stdout;
  };
  let listed: string;
  try {
    listed = await read(`zfs list -H -p -t snapshot -o name,creation ${datasets.join(" ")}`);
  } catch (error) {
    return [
      { subject: host, outcome: "failed", detail: error instanceof Error ? error.message : String(error) },
    ];
  }
  const items: SweepItem[] = [];
  for (const line of listed.split("\n")) {
    const [full, creation] = line.split("\t");
    const [dataset, name] = (full ?? "").split("@");
    const created = Number(creation);
    if (!dataset || !name || !datasets.includes(dataset) || !isOikosSnapshot(name)) continue;
    if (!Number.isFinite(created) || created * 1000 >= cutoff) continue;
    const item = await sweepItem(`${host}:${dataset}@${name}`, async () => {
      await read(`zfs destroy ${dataset}@${name}`);
      await markRemoved(deps, { host, dataset }, name);
      return `removed (taken ${new Date(created * 1000).toISOString()}, older than ${deps.retentionDays} days)`;
    });
    if (item) items.push(item);
  }
  return items;
}

/** The executions whose snapshot this was (a guest's, or one dataset's of a host) say it is gone. */
async function markRemoved(
  deps: RetentionDeps,
  of: { guest: string } | { host: string; dataset: string },
  name: string,
): Promise<void> {
  for (const row of await executionsWithSnapshot(deps.db)) {
    const snapshot = readExecutionSnapshot(row.snapshot);
    if (snapshot?.state !== "taken" || snapshot.name !== name) continue;
    const same =
      "guest" in of
        ? snapshot.tool !== "zfs" && snapshot.guest === of.guest
        : snapshot.tool === "zfs" && snapshot.host === of.host && snapshot.datasets.includes(of.dataset);
    if (!same) continue;
    await recordExecutionSnapshot(deps.db, row.id, { ...snapshot, removedAt: deps.now.toISOString() });
  }
}
