import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { toolRuleSchema, toolShim, worldFile } from "../../demo/homelab/tool-rule.ts";
import { discoverProxmox } from "../../jobs/proxmox/discover.ts";
import { InMemoryHostKeyStore } from "../../jobs/ssh/host-key-store.ts";
import { SshPool } from "../../jobs/ssh/ssh-pool.ts";
import { TransportRouter } from "../../jobs/ssh/transport-router.ts";
import {
  type ClusterState,
  installProxmoxCluster,
  type ProxmoxCluster,
} from "../../test-support/proxmox/proxmox-lab.ts";
import type { Homelab } from "../lab/homelab.ts";
import type { EvalSystem } from "./system.ts";

/**
 * A scenario's `proxmox:` block: lab hosts that play PVE nodes (the fake pvesh/pct/qm/zfs of
 * test-support/proxmox over one cluster state), each guest's world (its fake-tool variables and
 * rules, kept inside the guest's filesystem so snapshots and rollbacks carry them), and the node
 * entity discovery runs through before the operator speaks (`oikos import proxmox`).
 */
export const proxmoxBlock = z
  .object({
    /** lab host name → the PVE node it plays. */
    nodes: z.record(z.string(), z.string()),
    cluster: z.custom<ClusterState>((value) => typeof value === "object" && value !== null),
    guests: z
      .record(
        z.string(),
        z.object({
          vars: z.record(z.string(), z.unknown()).default({}),
          tools: z.record(z.string(), z.array(toolRuleSchema)).default({}),
        }),
      )
      .default({}),
    discover: z.string(),
  })
  .strict();
export type ProxmoxBlock = z.infer<typeof proxmoxBlock>;

/** `expect.proxmox`: the cluster's state at the end (guest status, rollbacks) and each guest's world. */
export const expectProxmox = z
  .object({
    guests: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    guest_vars: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  })
  .strict();
export type ExpectProxmox = z.infer<typeof expectProxmox>;

export async function setUpProxmox(
  system: EvalSystem,
  homelab: Homelab,
  block: ProxmoxBlock,
): Promise<ProxmoxCluster> {
  const cluster = await installProxmoxCluster(homelab.lab, block.nodes, structuredClone(block.cluster));
  for (const [vmid, guest] of Object.entries(block.guests)) {
    const file = join(cluster.guestDir(Number(vmid)), "world.json");
    await writeFile(file, worldFile(guest.vars, guest.tools));
    await chmod(file, 0o666);
    for (const host of Object.keys(block.nodes)) {
      for (const tool of Object.keys(guest.tools)) {
        const lab = homelab.lab.host(host);
        await homelab.lab.writeTool(host, tool, toolShim(join(lab.toolboxDir, "fake-tool.mjs"), tool));
      }
    }
  }
  const pool = new SshPool({
    auth: { privateKey: homelab.lab.privateKey },
    hostKeys: new InMemoryHostKeyStore(),
  });
  try {
    const discovered = await discoverProxmox(
      {
        db: system.store.db,
        runner: new TransportRouter({ pool }),
        targets: { sshUser: homelab.lab.username },
      },
      block.discover,
      "import:proxmox",
    );
    if (!discovered.ok) throw new Error(`proxmox discovery failed: ${discovered.reason}`);
  } finally {
    await pool.close();
  }
  return cluster;
}

export async function checkProxmox(expect: ExpectProxmox, cluster: ProxmoxCluster): Promise<string[]> {
  const failures: string[] = [];
  const state = await cluster.read();
  for (const [vmid, fields] of Object.entries(expect.guests ?? {})) {
    const guest = state.guests[vmid] as unknown as Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(fields)) {
      if (String(guest?.[key]) !== String(value))
        failures.push(
          `proxmox guest ${vmid}.${key} is ${JSON.stringify(guest?.[key])}, expected ${JSON.stringify(value)}`,
        );
    }
  }
  for (const [vmid, vars] of Object.entries(expect.guest_vars ?? {})) {
    const world = JSON.parse(await readFile(join(cluster.guestDir(Number(vmid)), "world.json"), "utf8")) as {
      vars: Record<string, unknown>;
    };
    for (const [key, value] of Object.entries(vars)) {
      if (String(world.vars[key]) !== String(value))
        failures.push(
          `guest ${vmid} world ${key} is ${JSON.stringify(world.vars[key])}, expected ${JSON.stringify(value)}`,
        );
    }
  }
  return failures;
}

/**
 * The operator step `proxmox:` changes the simulated cluster the way its admin would, between chat
 * turns: `run` a command at a node's shell (`pvecm create homelab`, `pvecm add pve1`, `pct set 102
 * --hostname adguard`, `pct destroy 103`) on the lab host that plays it, or `discover`: the periodic
 * discovery of that node entity runs now (what the `proxmox-discovery` repeat runs, by
 * `discovery:proxmox`). Exactly one of the two.
 */
export const proxmoxAction = z
  .object({
    node: z.string().optional(),
    run: z.string().optional(),
    discover: z.string().optional(),
  })
  .strict()
  .superRefine((action, ctx) => {
    const runs = action.run !== undefined;
    if (runs === (action.discover !== undefined))
      ctx.addIssue({
        code: "custom",
        message: "a proxmox step takes exactly one of run (with node) or discover",
      });
    if (runs !== (action.node !== undefined))
      ctx.addIssue({ code: "custom", path: ["node"], message: "run needs the lab host (node) it runs on" });
  });
export type ProxmoxAction = z.infer<typeof proxmoxAction>;

export async function performProxmox(
  system: EvalSystem,
  homelab: Homelab,
  action: ProxmoxAction,
): Promise<void> {
  const pool = new SshPool({
    auth: { privateKey: homelab.lab.privateKey },
    hostKeys: new InMemoryHostKeyStore(),
  });
  const router = new TransportRouter({ pool });
  try {
    if (action.discover !== undefined) {
      const outcome = await discoverProxmox(
        { db: system.store.db, runner: router, targets: { sshUser: homelab.lab.username } },
        action.discover,
        "discovery:proxmox",
      );
      if (!outcome.ok) throw new Error(`proxmox discovery of ${action.discover} failed: ${outcome.reason}`);
      return;
    }
    const host = homelab.lab.host(action.node!);
    const result = await router.exec(
      {
        slug: `lab:${host.name}`,
        transport: "ssh",
        ssh: { host: host.host, port: host.port, username: host.username },
      },
      action.run!,
    );
    if (result.exitCode !== 0)
      throw new Error(
        `${action.run} on ${action.node} failed (exit ${result.exitCode}): ${result.stderr.trim()}`,
      );
  } finally {
    await pool.close();
  }
}
