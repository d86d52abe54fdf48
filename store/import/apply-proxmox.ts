import type { Kysely } from "kysely";
import { recordAudit, type WriteContext } from "../audit.ts";
import { type EntityInput, type UpsertEntitiesResult, upsertEntities } from "../entities.ts";
import { createRelationship } from "../relationships.ts";
import { changeRouting } from "../routing-change.ts";
import type { Database, Entity, JsonObject } from "../schema.ts";
import type { EntityState } from "../statuses.ts";
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
  const known = await db.selectFrom("entities").selectAll().execute();
  const bySlug = new Map(known.map((entity) => [entity.slug, entity]));
  const discovering = bySlug.get(discoveringSlug);
  if (!discovering) throw new Error(`there is no entity ${discoveringSlug}`);

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

  const nodeSlug = new Map<string, string>();
  for (const node of reading.nodes) {
    const slug = node.name === reading.localNode ? discoveringSlug : findNode(known, key, node.name);
    nodeSlug.set(node.name, slug);
    const existing = bySlug.get(slug);
    const attributes: JsonObject = { "proxmox.node": node.name, "proxmox.cluster": key };
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
  for (const guest of reading.guests) {
    const slug = guestSlug(known, key, guest, taken);
    taken.add(slug);
    guestSlugs.set(guest, slug);
    const existing = bySlug.get(slug);
    const parent = nodeSlug.get(guest.node);
    if (!parent) continue;
    const keepsOwnRoute = existing?.transport === "ssh" || existing?.transport === "local";
    const moves = !keepsOwnRoute && !!existing?.parent_slug && existing.parent_slug !== parent;
    if (moves) moved.push({ slug, from: existing.parent_slug!, to: parent, node: guest.node });
    const attributes: JsonObject = {
      "proxmox.vmid": guest.vmid,
      // a move is written by changeRouting below (audited), not here
      ...(moves ? {} : { "proxmox.node": guest.node }),
      "proxmox.cluster": key,
      "proxmox.type": guest.kind,
      "proxmox.status": guest.status,
      "proxmox.tags": guest.tags,
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
      attributes,
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
  for (const entity of destroyed) {
    inputs.push({
      slug: entity.slug,
      type: entity.type,
      name: entity.name,
      state: "destroyed",
      attributes: { "proxmox.destroyed_at": now.toISOString(), "proxmox.status": "destroyed" },
    });
  }

  const entities = await upsertEntities(db, inputs, context);
  // Re-routing is the operator's: the one audited way (routing_changed, old → new), so an execution
  // approved for the old node will not run on the new one without a new approval.
  for (const move of moved) {
    const changed = await changeRouting(
      db,
      move.slug,
      { parent: move.to, "proxmox.node": move.node },
      context,
    );
    if (!changed.ok) {
      entities.failed.push({ slug: move.slug, reason: changed.reason });
      continue;
    }
    if (entities.unchanged.includes(move.slug)) {
      entities.unchanged = entities.unchanged.filter((slug) => slug !== move.slug);
      entities.updated.push(move.slug);
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

/** The entity of a node: one that already says it is this node of this cluster, else host:<name>. */
function findNode(known: Entity[], key: string, name: string): string {
  const match = known.find(
    (entity) =>
      entity.attributes["proxmox.node"] === name &&
      entity.attributes["proxmox.cluster"] === key &&
      entity.type !== "lxc" &&
      entity.type !== "vm" &&
      entity.type !== "storage",
  );
  return match?.slug ?? `host:${name}`;
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

function guestState(status: string): EntityState {
  if (status === "running") return "active";
  if (status === "stopped") return "stopped";
  return "unknown";
}
