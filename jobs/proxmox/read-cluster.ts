import type { z } from "zod";
import {
  clusterResourcesSchema,
  clusterStatusSchema,
  type GuestKind,
  guestConfigSchema,
  guestDisks,
  guestFacts,
  nodeGuestsSchema,
  nodeStoragesSchema,
  parseTags,
} from "../../store/import/proxmox-api.ts";
import type { ClusterReading, DiscoveredGuest } from "../../store/import/proxmox-reading.ts";
import { type NodeCommand, type PveshRead, pveshReadAll } from "./pvesh-batch.ts";

/** Runs one of discovery's fixed read-only commands on the node and gives back its stdout. */
export type NodeReader = (command: string) => Promise<string>;

/**
 * A node answered a discovery read, but not as the API shape says (not JSON, an unexpected shape).
 * Not errors.ts's ProxmoxReadError (the read itself failed): discovery reports either's message.
 */
export class PveshAnswerError extends Error {
  readonly command: string;
  constructor(command: string, message: string) {
    super(message);
    this.command = command;
  }
}

/** `pvesh get <path> --output-format json`, parsed with the API shape of that path. */
export async function pveshGet<T extends z.ZodType>(
  read: NodeReader,
  path: string,
  schema: T,
): Promise<z.output<T>> {
  const command = `pvesh get ${path} --output-format json`;
  const text = await read(command);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PveshAnswerError(command, `${command} did not print JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new PveshAnswerError(
      command,
      `${command} printed an unexpected shape: ${parsed.error.issues[0]?.message}`,
    );
  }
  return parsed.data;
}

/**
 * Reads the whole cluster through one node in two batched commands (jobs/proxmox/pvesh-batch.ts):
 * /cluster/status (the cluster, the nodes, which is this one) and /cluster/resources (every guest and
 * storage, even on nodes that are down); then, per online node, /nodes/{node}/storage, /lxc and
 * /qemu, and each guest's config (disks, ostype) — all read through the node discovery runs on, which
 * the API forwards to the others. A node that is down keeps its guests (status unknown, disks as last
 * seen): it is not where they were destroyed.
 */
export async function readCluster(run: NodeCommand): Promise<ClusterReading> {
  const first = await pveshReadAll(run, ["/cluster/status", "/cluster/resources"], 1);
  const status = parsed(first, "/cluster/status", clusterStatusSchema);
  const resources = parsed(first, "/cluster/resources", clusterResourcesSchema);
  const warnings: string[] = [];
  const cluster = status.find((entry) => entry.type === "cluster")?.name ?? null;
  const statusNodes = status.filter((entry) => entry.type === "node");
  const localNode = statusNodes.find((entry) => "local" in entry && entry.local)?.name;
  if (!localNode)
    throw new PveshAnswerError("pvesh get /cluster/status", "/cluster/status names no local node");

  const nodes = statusNodes.map((entry) => ({
    name: entry.name,
    ip: ("ip" in entry && typeof entry.ip === "string" ? entry.ip : null) ?? null,
    online: !("online" in entry) || entry.online !== false,
  }));
  const storages: ClusterReading["storages"] = [];
  const guests: DiscoveredGuest[] = [];
  for (const item of resources) {
    if (item.type === "storage" && "storage" in item) {
      storages.push({
        node: String(item.node),
        storage: String(item.storage),
        type: String(item.plugintype ?? "unknown"),
        shared: item.shared === true,
      });
    }
    if ((item.type === "lxc" || item.type === "qemu") && "vmid" in item) {
      if (item.template === true) continue; // a template is not a guest anything runs in
      guests.push({
        kind: item.type as GuestKind,
        vmid: Number(item.vmid),
        name: typeof item.name === "string" && item.name !== "" ? item.name : `${item.type}-${item.vmid}`,
        node: String(item.node),
        status: typeof item.status === "string" ? item.status : "unknown",
        tags: parseTags(typeof item.tags === "string" ? item.tags : undefined),
        disks: null,
        config: null,
      });
    }
  }

  const online = nodes.filter((n) => n.online);
  const nodePaths = online.flatMap((n) =>
    ["storage", "lxc", "qemu"].map((what) => `/nodes/${n.name}/${what}`),
  );
  const configPath = (g: DiscoveredGuest) => `/nodes/${g.node}/${g.kind}/${g.vmid}/config`;
  const onOnline = guests.filter((g) => online.some((n) => n.name === g.node));
  // pvesh is slow to start (it loads the whole API): the node's cores read side by side
  const second = await pveshReadAll(run, [...nodePaths, ...onOnline.map(configPath)], 4);

  for (const node of online) {
    try {
      const nodeStorages = parsed(second, `/nodes/${node.name}/storage`, nodeStoragesSchema);
      for (const s of nodeStorages) {
        const known = storages.find((x) => x.node === node.name && x.storage === s.storage);
        if (known) known.type = s.type;
        else storages.push({ node: node.name, storage: s.storage, type: s.type, shared: s.shared === true });
      }
      // The node's own lists are fresher than the cluster's cache: their status and tags win.
      for (const kind of ["lxc", "qemu"] as const) {
        for (const listed of parsed(second, `/nodes/${node.name}/${kind}`, nodeGuestsSchema)) {
          const guest = guests.find((g) => g.kind === kind && g.vmid === listed.vmid && g.node === node.name);
          if (!guest) continue;
          if (listed.status) guest.status = listed.status;
          if (listed.tags !== undefined) guest.tags = parseTags(listed.tags);
        }
      }
    } catch (error) {
      warnings.push(`node ${node.name}: ${error instanceof Error ? error.message : String(error)}`);
      node.online = false;
    }
  }
  for (const guest of onOnline) {
    if (!nodes.find((n) => n.name === guest.node)?.online) continue;
    try {
      const config = parsed(second, configPath(guest), guestConfigSchema);
      guest.disks = guestDisks(guest.kind, config);
      guest.config = guestFacts(guest.kind, config);
    } catch (error) {
      warnings.push(`${guest.kind} ${guest.vmid}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { cluster, localNode, nodes, storages, guests, warnings };
}

/** One path's answer in the shape of its API schema, or the error that says why not. */
function parsed<T extends z.ZodType>(reads: Map<string, PveshRead>, path: string, schema: T): z.output<T> {
  const command = `pvesh get ${path} --output-format json`;
  const read = reads.get(path);
  if (!read) throw new PveshAnswerError(command, `${command} was not read`);
  if (!read.ok) throw new PveshAnswerError(command, read.error);
  const result = schema.safeParse(read.json);
  if (!result.success) {
    throw new PveshAnswerError(
      command,
      `${command} printed an unexpected shape: ${result.error.issues[0]?.message}`,
    );
  }
  return result.data;
}
