import type { Db } from "../../store/db.ts";
import { applyProxmoxDiscovery, type ProxmoxImportResult } from "../../store/import/apply-proxmox.ts";
import { resolveTarget, type TargetDefaults } from "../execution/target-resolver.ts";
import { ProxmoxReadError } from "./errors.ts";
import { probeContainersAtDiscovery } from "./guest-probe.ts";
import type { NodeRunner } from "./node-runner.ts";
import { readCluster } from "./read-cluster.ts";

export interface DiscoverDeps {
  db: Db;
  runner: NodeRunner;
  targets: TargetDefaults;
  /** Per batched read. Default 120 s. */
  timeoutMs?: number;
}

export type DiscoveryOutcome = { ok: true; result: ProxmoxImportResult } | { ok: false; reason: string };

/**
 * `oikos import proxmox <node>` and the periodic discovery job: read the cluster over the node's own
 * transport (ssh, or local when oikos runs on the node) with fixed read-only pvesh calls, then write
 * the graph. A failed read writes nothing (no guest is marked destroyed because a node did not answer).
 */
export async function discoverProxmox(
  deps: DiscoverDeps,
  nodeSlug: string,
  by: string,
): Promise<DiscoveryOutcome> {
  const resolved = await resolveTarget(deps.db, nodeSlug, deps.targets);
  if (!resolved.ok) return { ok: false, reason: resolved.reason };
  if (resolved.target.transport !== "ssh" && resolved.target.transport !== "local") {
    return {
      ok: false,
      reason: `${nodeSlug} is a guest (${resolved.target.transport}): name its Proxmox node`,
    };
  }
  const target = resolved.target;
  // One batched command reads many paths; each path's own exit status is inside its output.
  const run = async (command: string) => {
    const result = await deps.runner.exec(target, command, {
      timeoutMs: deps.timeoutMs ?? 120_000,
      maxOutputBytes: 16 * 1024 * 1024,
    });
    if (result.timedOut || result.truncated || result.exitCode !== 0) {
      const why = result.timedOut
        ? "timed out"
        : result.truncated
          ? "printed more than the output cap"
          : `exit ${result.exitCode}`;
      throw new ProxmoxReadError({
        command: "pvesh get (the cluster)",
        where: nodeSlug,
        why,
        stderr: result.stderr,
      });
    }
    return result;
  };
  let reading: Awaited<ReturnType<typeof readCluster>>;
  try {
    reading = await readCluster(run);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  let result: ProxmoxImportResult;
  try {
    result = await applyProxmoxDiscovery(deps.db, reading, nodeSlug, { by });
  } catch (error) {
    return {
      ok: false,
      reason: `writing the discovery failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const containers = [
    ...result.entities.created,
    ...result.entities.updated,
    ...result.entities.unchanged,
  ].filter((slug) => slug.startsWith("lxc:"));
  result.probed = await probeContainersAtDiscovery(deps, containers);
  return { ok: true, result };
}
