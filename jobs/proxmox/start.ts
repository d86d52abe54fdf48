import type { Db } from "../../store/db.ts";
import type { TargetDefaults } from "../execution/target-resolver.ts";
import type { QueuePort } from "../queue/port.ts";
import { registerSweep } from "../sweeps/registry.ts";
import { discoverProxmox } from "./discover.ts";
import type { NodeRunner } from "./node-runner.ts";
import { sweepOikosSnapshots } from "./retention.ts";

export interface ProxmoxJobsConfig {
  /** proxmox.discoveryNodes: empty = periodic discovery off. */
  discoveryNodes: string[];
  discoveryEveryMs: number;
  snapshotRetentionDays: number;
}

/** The retention sweep lists snapshots over SSH: once an hour is plenty, whatever the sweep period. */
const RETENTION_EVERY_MS = 3_600_000;

/**
 * The `snapshots` sweep kind (retention, jobs/proxmox/retention.ts): where workers run at most once
 * per `everyMs`, whatever the sweep period; `oikos sweep snapshots` registers it with 0 (run now).
 */
export function registerSnapshotRetention(
  deps: { runner: NodeRunner; targets: TargetDefaults },
  retentionDays: number,
  everyMs: number,
): void {
  let lastRetention = Number.NEGATIVE_INFINITY;
  registerSweep("snapshots", async (ctx) => {
    if (ctx.now.getTime() - lastRetention < everyMs) return [];
    lastRetention = ctx.now.getTime();
    return sweepOikosSnapshots({
      db: ctx.db,
      runner: deps.runner,
      targets: deps.targets,
      retentionDays,
      now: ctx.now,
    });
  });
}

/**
 * Where workers run: the `snapshots` sweep kind (retention, at most hourly) and, when nodes are
 * configured, the `proxmox-discovery` repeat per node. Discovery is off by default.
 */
export async function startProxmoxJobs(
  deps: {
    db: Db;
    queue: QueuePort;
    runner: NodeRunner;
    targets: TargetDefaults;
    logger: { info(object: object, message: string): void; warn(object: object, message: string): void };
  },
  config: ProxmoxJobsConfig,
): Promise<void> {
  registerSnapshotRetention(deps, config.snapshotRetentionDays, RETENTION_EVERY_MS);
  if (config.discoveryNodes.length === 0) return;
  deps.queue.register("proxmox-discovery", async (job) => {
    const outcome = await discoverProxmox(
      { db: deps.db, runner: deps.runner, targets: deps.targets },
      job.data.node,
      "discovery:proxmox",
    );
    if (!outcome.ok) {
      deps.logger.warn({ node: job.data.node, reason: outcome.reason }, "proxmox discovery failed");
      return;
    }
    const { entities, destroyed, moved, renamed, joined, probed } = outcome.result;
    for (const join of joined)
      deps.logger.info(
        { node: join.node, from: join.from, to: join.to, entities: join.moved.length },
        "proxmox node joined a cluster: its guests carried over",
      );
    if (entities.created.length + entities.updated.length > 0) {
      deps.logger.info(
        {
          node: job.data.node,
          created: entities.created,
          updated: entities.updated,
          destroyed,
          moved,
          renamed,
          probed,
        },
        "proxmox discovery changed the graph",
      );
    }
  });
  for (const node of config.discoveryNodes) {
    await deps.queue.repeat(
      "proxmox-discovery",
      { node },
      { everyMs: config.discoveryEveryMs, key: `proxmox-discovery:${node}` },
    );
  }
}
