import type { Db } from "../../store/db.ts";
import { readExecutionSnapshot, type TakenSnapshot } from "../../store/execution-snapshot.ts";
import { executionsWithSnapshot, recordExecutionSnapshot } from "../../store/executions.ts";
import { snapshotListSchema } from "../../store/import/proxmox-api.ts";
import { resolveTarget, type TargetDefaults } from "../execution/target-resolver.ts";
import type { SweepItem } from "../sweeps/registry.ts";
import { sweepItem } from "../sweeps/registry.ts";
import { type NodeRunner, readOnNode } from "./node-runner.ts";
import { pveshGet } from "./read-cluster.ts";

export interface RetentionDeps {
  db: Db;
  runner: NodeRunner;
  targets: TargetDefaults;
  /** oikos snapshots older than this are removed; 0 keeps them all. */
  retentionDays: number;
  now: Date;
}

/** A listed snapshot is the one oikos recorded when its time is this close to the recorded one. */
const SAME_SNAPSHOT_MS = 10 * 60_000;

/** Every snapshot oikos took and still has (not removed, not rolled over by retention), from the executions. */
async function recordedSnapshots(db: Db): Promise<TakenSnapshot[]> {
  const taken: TakenSnapshot[] = [];
  for (const row of await executionsWithSnapshot(db)) {
    const snapshot = readExecutionSnapshot(row.snapshot);
    if (snapshot?.state === "taken" && !snapshot.removedAt) taken.push(snapshot);
  }
  return taken;
}

/** Whether a listed snapshot is one oikos recorded: same name, taken when the record says. */
function isRecorded(recorded: TakenSnapshot[], name: string, takenAtSeconds: number | undefined): boolean {
  return recorded.some(
    (snapshot) =>
      snapshot.name === name &&
      takenAtSeconds !== undefined &&
      Math.abs(Date.parse(snapshot.takenAt) - takenAtSeconds * 1000) <= SAME_SNAPSHOT_MS,
  );
}

/**
 * The snapshot retention sweep: oikos removes only snapshots it recorded taking (the execution's
 * snapshot record: guest or host and datasets, name, when), never one because of its name — an
 * operator's `oikos-…`, or a second oikos's, stays. On every guest oikos snapshotted it lists what
 * Proxmox has (`pvesh get /nodes/{node}/{lxc|qemu}/{vmid}/snapshot`) and removes with `pct`/`qm
 * delsnapshot` each recorded one older than the retention; on every host whose ZFS datasets oikos
 * snapshotted, the same with `zfs`. A recorded snapshot Proxmox no longer lists was removed by
 * someone else: its execution says so too. The executions say it is gone (no rollback offered).
 * Returns one item per snapshot removed (or that could not be).
 */
export async function sweepOikosSnapshots(deps: RetentionDeps): Promise<SweepItem[]> {
  if (deps.retentionDays <= 0) return [];
  const cutoff = deps.now.getTime() - deps.retentionDays * 86_400_000;
  const recorded = await recordedSnapshots(deps.db);
  const guests = new Map<string, TakenSnapshot[]>();
  const datasets = new Map<string, TakenSnapshot[]>();
  for (const snapshot of recorded) {
    const key = snapshot.tool === "zfs" ? snapshot.host : snapshot.guest;
    const into = snapshot.tool === "zfs" ? datasets : guests;
    into.set(key, [...(into.get(key) ?? []), snapshot]);
  }
  const items: SweepItem[] = [];
  for (const [guest, ours] of [...guests].sort(([a], [b]) => a.localeCompare(b))) {
    const resolved = await resolveTarget(deps.db, guest, deps.targets);
    if (!resolved.ok || !resolved.target.via || resolved.target.vmid === undefined) continue;
    const { via, vmid } = resolved.target;
    const kind = resolved.target.transport === "pct-exec" ? "lxc" : "qemu";
    const tool = kind === "lxc" ? "pct" : "qm";
    const node = resolved.entity.attributes["proxmox.node"];
    if (typeof node !== "string") continue;
    const read = (command: string) => readOnNode(deps.runner, via, command);
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
      if (!isRecorded(ours, snapshot.name, snapshot.snaptime) || snapshot.snaptime === undefined) continue;
      if (snapshot.snaptime * 1000 >= cutoff) continue;
      const item = await sweepItem(`${guest}@${snapshot.name}`, async () => {
        await read(`${tool} delsnapshot ${vmid} ${snapshot.name}`);
        await markRemoved(deps, { guest }, snapshot.name);
        return `removed (taken ${new Date(snapshot.snaptime! * 1000).toISOString()}, older than ${deps.retentionDays} days)`;
      });
      if (item) items.push(item);
    }
    for (const gone of ours.filter((s) => !listed.some((l) => l.name === s.name))) {
      const item = await sweepItem(`${guest}@${gone.name}`, async () => {
        await markRemoved(deps, { guest }, gone.name);
        return "no longer listed by Proxmox (removed outside oikos): rollback is not offered any more";
      });
      if (item) items.push(item);
    }
  }
  for (const [host, ours] of [...datasets].sort(([a], [b]) => a.localeCompare(b))) {
    items.push(...(await sweepDatasetSnapshots(deps, host, ours, cutoff)));
  }
  return items;
}

/**
 * The same for ZFS datasets on a host: `zfs list -H -p -t snapshot -o name,creation <datasets>` and
 * `zfs destroy <dataset>@<name>` for those oikos recorded and older than the retention.
 */
async function sweepDatasetSnapshots(
  deps: RetentionDeps,
  host: string,
  ours: TakenSnapshot[],
  cutoff: number,
): Promise<SweepItem[]> {
  const resolved = await resolveTarget(deps.db, host, deps.targets);
  if (!resolved.ok) return [];
  const datasets = [...new Set(ours.flatMap((s) => (s.tool === "zfs" ? s.datasets : [])))].sort();
  const read = (command: string) => readOnNode(deps.runner, resolved.target, command, host);
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
    if (!dataset || !name || !datasets.includes(dataset)) continue;
    const mine = ours.filter((s) => s.tool === "zfs" && s.datasets.includes(dataset));
    if (!isRecorded(mine, name, Number.isFinite(created) ? created : undefined)) continue;
    if (created * 1000 >= cutoff) continue;
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
