import type { Kysely } from "kysely";
import { OikosError } from "../../base/errors.ts";
import {
  GUEST_OS_ATTRIBUTE,
  GUEST_SHELL_ATTRIBUTE,
  GUEST_SHELL_SOURCE_ATTRIBUTE,
  type GuestShell,
  osFromOstype,
  recordedShell,
  shellFromOstype,
} from "../../policy/guest-shell.ts";
import { recordAudit, type WriteContext } from "../audit.ts";
import { type EntityInput, type UpsertEntitiesResult, upsertEntities } from "../entities.ts";
import { createRelationship } from "../relationships.ts";
import { changeRouting } from "../routing-change.ts";
import type { Database, Entity, JsonObject } from "../schema.ts";
import type { EntityState } from "../statuses.ts";
import {
  carryOverCluster,
  keysToCarryOver,
  type MembershipChange,
  nodeEntities,
  STANDALONE_ATTRIBUTE,
} from "./proxmox-membership.ts";
import { type ClusterReading, clusterKey, type DiscoveredGuest } from "./proxmox-reading.ts";

export interface ProxmoxImportResult {
  cluster: string;
  entities: UpsertEntitiesResult;
  relationships: {
    created: string[];
    unchanged: string[];
    removed: string[];
    failed: { edge: string; reason: string }[];
  };
  /** Guests that were known in this cluster and are gone: marked destroyed (kept, with when). */
  destroyed: string[];
  /** Guests that changed nodes: re-routed through their new node (audited as a routing change). */
  moved: { slug: string; from: string; to: string; node: string }[];
  /** Guests Proxmox renamed (same vmid in the same cluster): the same entity, renamed (a routing change). */
  renamed: { slug: string; from: string; to: string }[];
  /** Nodes that formed or joined this cluster (or were renamed) since last read, and what moved with them. */
  joined: MembershipChange[];
  /** Containers whose shell discovery probed (jobs/proxmox/guest-probe.ts), with what it found. */
  probed: { slug: string; shell: GuestShell }[];
  warnings: string[];
}

const GUEST_TYPE = { lxc: "lxc", qemu: "vm" } as const;
const GUEST_TRANSPORT = { lxc: "pct-exec", qemu: "qm-guest-exec" } as const;

/**
 * Writes one discovery into the graph: nodes (the discovering node keeps its own routing; a node seen
 * for the first time is reached over SSH at the address the cluster gives), storages, containers and
 * VMs with their transport through their node, and the runs-on / stored-on / member-of edges.
 * Idempotent. A guest of this cluster that is no longer listed is marked destroyed, never deleted;
 * a guest that moved nodes is re-routed, and that routing change is audited.
 */
export async function applyProxmoxDiscovery(
  db: Kysely<Database>,
  reading: ClusterReading,
  discoveringSlug: string,
  context: WriteContext,
  now = new Date(),
): Promise<ProxmoxImportResult> {
  const key = clusterKey(reading);
  let known = await db.selectFrom("entities").selectAll().execute();
  if (!known.some((entity) => entity.slug === discoveringSlug))
    throw new OikosError(
      "unknown_entity",
      `There is no entity ${discoveringSlug}: import the Proxmox node first (\`oikos import ssh-config\` or an inventory), then \`oikos import proxmox ${discoveringSlug}\`.`,
    );
  const nodeSlug = nodeEntities(known, reading, key, discoveringSlug);
  // A standalone node that formed or joined this cluster (or was renamed): its guests come along.
  const joined: MembershipChange[] = [];
  for (const change of keysToCarryOver(known, key, nodeSlug))
    joined.push(await carryOverCluster(db, { ...change, to: key }, context, now));
  if (joined.length > 0) known = await db.selectFrom("entities").selectAll().execute();
  const bySlug = new Map(known.map((entity) => [entity.slug, entity]));
  const discovering = bySlug.get(discoveringSlug)!;

  const inputs: EntityInput[] = [];
  const clusterSlug = reading.cluster ? `cluster:${reading.cluster}` : null;
  if (clusterSlug) {
    inputs.push({
      slug: clusterSlug,
      type: "cluster",
      name: reading.cluster!,
      transport: "none",
      attributes: {},
    });
  }

  for (const node of reading.nodes) {
    const slug = nodeSlug.get(node.name)!;
    const existing = bySlug.get(slug);
    const attributes: JsonObject = {
      "proxmox.node": node.name,
      "proxmox.cluster": key,
      [STANDALONE_ATTRIBUTE]: reading.cluster === null,
    };
    if (node.ip) attributes["proxmox.ip"] = node.ip;
    if (existing) {
      inputs.push({ slug, type: existing.type, name: existing.name, attributes });
    } else {
      // First sight of this node: reached over SSH like the node discovery ran on.
      const user = discovering.attributes["ssh.user"];
      inputs.push({
        slug,
        type: "host",
        name: node.name,
        transport: "ssh",
        attributes: {
          ...attributes,
          "ssh.host": node.ip ?? node.name,
          ...(typeof user === "string" ? { "ssh.user": user } : {}),
        },
      });
    }
  }

  const storageOn = (node: string, storage: string) =>
    reading.storages.find((s) => s.storage === storage && s.node === node);
  const storageSlug = (node: string, storage: string): string | undefined => {
    const found = storageOn(node, storage);
    if (!found) return undefined;
    return found.shared ? `storage:${storage}` : `storage:${node}/${storage}`;
  };
  for (const s of reading.storages) {
    const slug = s.shared ? `storage:${s.storage}` : `storage:${s.node}/${s.storage}`;
    if (inputs.some((input) => input.slug === slug)) continue;
    inputs.push({
      slug,
      type: "storage",
      name: s.shared ? s.storage : `${s.storage} on ${s.node}`,
      transport: "none",
      attributes: {
        "proxmox.cluster": key,
        "proxmox.storage": s.storage,
        "proxmox.storage_type": s.type,
        "proxmox.shared": s.shared,
      },
    });
  }

  const guestSlugs = new Map<DiscoveredGuest, string>();
  const taken = new Set(inputs.map((input) => input.slug));
  const moved: ProxmoxImportResult["moved"] = [];
  const renamed: ProxmoxImportResult["renamed"] = [];
  /** Routing changes the operator's audited path writes (changeRouting), per guest. */
  const routing = new Map<string, Record<string, string | number>>();
  for (const guest of reading.guests) {
    const slug = guestSlug(known, key, guest, taken);
    taken.add(slug);
    guestSlugs.set(guest, slug);
    const existing = bySlug.get(slug);
    const parent = nodeSlug.get(guest.node);
    if (!parent) continue;
    const keepsOwnRoute = existing?.transport === "ssh" || existing?.transport === "local";
    const moves = !keepsOwnRoute && !!existing?.parent_slug && existing.parent_slug !== parent;
    if (moves) {
      moved.push({ slug, from: existing.parent_slug!, to: parent, node: guest.node });
      routing.set(slug, { parent, "proxmox.node": guest.node });
    }
    const recordedName = existing
      ? String(existing.attributes["proxmox.name"] ?? (keepsOwnRoute ? guest.name : existing.name))
      : guest.name;
    const renames = existing !== undefined && existing.state !== "destroyed" && recordedName !== guest.name;
    if (renames) {
      renamed.push({ slug, from: recordedName, to: guest.name });
      routing.set(slug, { ...routing.get(slug), "proxmox.name": guest.name });
    }
    const attributes: JsonObject = {
      "proxmox.vmid": guest.vmid,
      // a move or a rename is written by changeRouting below (audited), not here
      ...(moves ? {} : { "proxmox.node": guest.node }),
      ...(renames ? {} : { "proxmox.name": guest.name }),
      "proxmox.cluster": key,
      "proxmox.type": guest.kind,
      "proxmox.status": guest.status,
      "proxmox.tags": guest.tags,
      ...guestFactAttributes(guest, existing),
    };
    // a guest back under a vmid once marked destroyed (restored from backup) is alive again
    if (existing && "proxmox.destroyed_at" in existing.attributes) attributes["proxmox.destroyed_at"] = null;
    if (existing && "vmid" in existing.attributes) attributes.vmid = guest.vmid;
    if (guest.disks) {
      attributes["proxmox.disks"] = guest.disks.map((disk) => ({
        key: disk.key,
        storage: disk.storage,
        storage_type: storageOn(guest.node, disk.storage)?.type ?? null,
        format: disk.format,
      }));
    }
    inputs.push({
      slug,
      type: GUEST_TYPE[guest.kind],
      // A guest on its own route may be reached by its name (the resolver's last SSH fallback):
      // renaming it would move where commands go without the audited routing change.
      name: keepsOwnRoute && existing ? existing.name : guest.name,
      state: guestState(guest.status),
      ...(keepsOwnRoute ? {} : { transport: GUEST_TRANSPORT[guest.kind] }),
      ...(keepsOwnRoute || moves ? {} : { parentSlug: parent }),
      attributes: onlyRealRemovals(attributes, existing),
    });
  }

  const seen = new Set(guestSlugs.values());
  const destroyed = known.filter(
    (entity) =>
      (entity.type === "lxc" || entity.type === "vm") &&
      entity.attributes["proxmox.cluster"] === key &&
      entity.state !== "destroyed" &&
      !seen.has(entity.slug),
  );
  // First in the batch: a vmid freed by a destroyed guest may already belong to a new one, and the
  // database allows one runnable guest per cluster and vmid at every moment.
  inputs.unshift(
    ...destroyed.map((entity) => ({
      slug: entity.slug,
      type: entity.type,
      name: entity.name,
      state: "destroyed" as const,
      attributes: { "proxmox.destroyed_at": now.toISOString(), "proxmox.status": "destroyed" },
    })),
  );

  const entities = await upsertEntities(db, inputs, context);
  // Re-routing and renaming are the operator's: the one audited way (routing_changed, old → new), so an
  // execution approved for the old node or the old guest will not run without a new approval.
  for (const [slug, patch] of routing) {
    const changed = await changeRouting(db, slug, patch, context);
    if (!changed.ok) {
      entities.failed.push({ slug, reason: changed.reason });
      continue;
    }
    if (entities.unchanged.includes(slug)) {
      entities.unchanged = entities.unchanged.filter((s) => s !== slug);
      entities.updated.push(slug);
    }
  }
  if (destroyed.length > 0) {
    await recordAudit(db, context, {
      action: "entities.destroyed",
      subject: null,
      details: { slugs: destroyed.map((e) => e.slug), why: "no longer listed by Proxmox" },
    });
  }

  const edges: [string, string, string][] = [];
  if (clusterSlug) for (const slug of nodeSlug.values()) edges.push([slug, "member-of", clusterSlug]);
  for (const [guest, slug] of guestSlugs) {
    const parent = nodeSlug.get(guest.node);
    if (parent) edges.push([slug, "runs-on", parent]);
    for (const disk of guest.disks ?? []) {
      const storage = storageSlug(guest.node, disk.storage);
      if (storage && !edges.some(([s, t, d]) => s === slug && t === "stored-on" && d === storage)) {
        edges.push([slug, "stored-on", storage]);
      }
    }
  }
  const relationships = await linkEdges(db, edges, moved, context);
  return {
    cluster: key,
    entities,
    relationships,
    destroyed: destroyed.map((e) => e.slug),
    moved,
    renamed,
    joined,
    probed: [],
    warnings: reading.warnings,
  };
}

async function linkEdges(
  db: Kysely<Database>,
  edges: [string, string, string][],
  moved: ProxmoxImportResult["moved"],
  context: WriteContext,
): Promise<ProxmoxImportResult["relationships"]> {
  const result: ProxmoxImportResult["relationships"] = {
    created: [],
    unchanged: [],
    removed: [],
    failed: [],
  };
  for (const move of moved) {
    const gone = await db
      .deleteFrom("relationships")
      .where("source_slug", "=", move.slug)
      .where("type", "=", "runs-on")
      .where("target_slug", "=", move.from)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) result.removed.push(`${move.slug} runs-on ${move.from}`);
  }
  for (const [source, type, target] of edges) {
    const edge = `${source} ${type} ${target}`;
    const outcome = await createRelationship(db, { source, type, target }, context);
    if (outcome.status === "created") result.created.push(edge);
    else if (outcome.status === "exists") result.unchanged.push(edge);
    else result.failed.push({ edge, reason: outcome.status });
  }
  return result;
}

/**
 * What the guest's config says about it (ostype, agent, lock) and, while no probe has confirmed the
 * guest's shell, what the ostype tells of it (policy/guest-shell.ts). A probed shell is never
 * overwritten; a config that could not be read keeps what was recorded.
 */
function guestFactAttributes(guest: DiscoveredGuest, existing: Entity | undefined): JsonObject {
  if (!guest.config) return {};
  const { ostype, agent, lock } = guest.config;
  const attributes: JsonObject = { "proxmox.ostype": ostype, "proxmox.lock": lock };
  if (guest.kind === "qemu") attributes["proxmox.agent"] = agent;
  const probed = recordedShell(existing?.attributes ?? {}).probed;
  if (!probed) {
    attributes[GUEST_OS_ATTRIBUTE] = osFromOstype(guest.kind, ostype);
    const presumed = shellFromOstype(guest.kind, ostype);
    attributes[GUEST_SHELL_ATTRIBUTE] = presumed;
    attributes[GUEST_SHELL_SOURCE_ATTRIBUTE] = presumed === null ? null : "ostype";
  }
  return attributes;
}

/**
 * The guest's entity: the one that already holds this vmid in this cluster (or holds it without a
 * cluster, imported by hand), else `lxc:<name>` / `vm:<name>`, suffixed with the vmid when taken.
 */
function guestSlug(known: Entity[], key: string, guest: DiscoveredGuest, taken: Set<string>): string {
  const type = GUEST_TYPE[guest.kind];
  const vmidOf = (entity: Entity) => Number(entity.attributes["proxmox.vmid"] ?? entity.attributes.vmid);
  const candidates = known.filter((entity) => entity.type === type && vmidOf(entity) === guest.vmid);
  const match =
    candidates.find((e) => e.attributes["proxmox.cluster"] === key && e.state !== "destroyed") ??
    candidates.find((e) => e.attributes["proxmox.cluster"] === undefined && e.state !== "destroyed") ??
    candidates.find((e) => e.attributes["proxmox.cluster"] === key && e.name === guest.name);
  if (match && !taken.has(match.slug)) return match.slug;
  const base = `${type}:${guest.name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-") || guest.vmid}`;
  const holder = known.find((entity) => entity.slug === base);
  // A slug held by another guest (another vmid) is not this one's: suffix the vmid.
  const heldByOther = holder !== undefined && !Number.isNaN(vmidOf(holder)) && vmidOf(holder) !== guest.vmid;
  return taken.has(base) || heldByOther ? `${base}-${guest.vmid}` : base;
}

/** A null removes an attribute: only send it for keys the entity has (a new entity would store the null). */
function onlyRealRemovals(attributes: JsonObject, existing: Entity | undefined): JsonObject {
  return Object.fromEntries(
    Object.entries(attributes).filter(
      ([key, value]) => value !== null || (existing && key in existing.attributes),
    ),
  );
}

function guestState(status: string): EntityState {
  if (status === "running") return "active";
  if (status === "stopped") return "stopped";
  return "unknown";
}
