import { type Kysely, sql } from "kysely";
import { recordAudit, type WriteContext } from "../audit.ts";
import type { Database, Entity, JsonObject } from "../schema.ts";
import type { EntityState } from "../statuses.ts";
import type { ClusterReading } from "./proxmox-reading.ts";

/**
 * A guest's identity is its vmid within a cluster: `proxmox.cluster` names the cluster (a standalone
 * node's own name until it forms or joins one). oikos tracks which cluster each node belongs to, so
 * when a standalone node becomes a cluster (`pvecm create`, `pvecm add`) or is renamed, what it held
 * under its old key is carried over to the new one instead of being seen as a second set of guests.
 */

/** Node entities record whether the node was standalone when last read (`proxmox.standalone`). */
export const STANDALONE_ATTRIBUTE = "proxmox.standalone";

const GUEST_TYPES = new Set(["lxc", "vm"]);
const isGuest = (entity: Entity) =>
  GUEST_TYPES.has(entity.type) || entity.attributes["proxmox.vmid"] !== undefined;
const isNodeEntity = (entity: Entity) =>
  !isGuest(entity) && entity.type !== "storage" && entity.type !== "cluster";

/** Whether a node entity, as last recorded, was a standalone node (its cluster key is its own name). */
function wasStandalone(entity: Entity): boolean {
  const flag = entity.attributes[STANDALONE_ATTRIBUTE];
  if (typeof flag === "boolean") return flag;
  // recorded before the flag existed: a standalone node's key was its node name
  return entity.attributes["proxmox.cluster"] === entity.attributes["proxmox.node"];
}

/**
 * The entity of each node of the reading: the discovering node is the entity discovery ran through;
 * another is the node entity that already says it is this node of this cluster (or was this node
 * while standalone), else — a node renamed in the cluster — the one of this cluster at the same
 * address whose old name the cluster no longer lists; else `host:<name>`.
 */
export function nodeEntities(
  known: Entity[],
  reading: ClusterReading,
  key: string,
  discoveringSlug: string,
): Map<string, string> {
  const slugs = new Map<string, string>();
  const listed = new Set(reading.nodes.map((node) => node.name));
  for (const node of reading.nodes) {
    if (node.name === reading.localNode) {
      slugs.set(node.name, discoveringSlug);
      continue;
    }
    const nodes = known.filter((e) => isNodeEntity(e) && e.slug !== discoveringSlug);
    const same =
      nodes.find(
        (e) => e.attributes["proxmox.node"] === node.name && e.attributes["proxmox.cluster"] === key,
      ) ??
      nodes.find(
        (e) =>
          e.attributes["proxmox.node"] === node.name &&
          wasStandalone(e) &&
          e.attributes["proxmox.cluster"] === node.name,
      ) ??
      (node.ip
        ? nodes.find(
            (e) =>
              e.attributes["proxmox.cluster"] === key &&
              e.attributes["proxmox.ip"] === node.ip &&
              typeof e.attributes["proxmox.node"] === "string" &&
              !listed.has(e.attributes["proxmox.node"] as string),
          )
        : undefined);
    slugs.set(node.name, same?.slug ?? `host:${node.name}`);
  }
  return slugs;
}

export interface MembershipChange {
  /** The key its entities had (a standalone node's old name). */
  from: string;
  to: string;
  node: string;
  /** Entities re-keyed to the new cluster. */
  moved: string[];
  /** Guests already known under the new key with the same vmid: the old record is marked destroyed. */
  superseded: { slug: string; by: string }[];
}

/**
 * The keys to carry over: each node of the reading whose entity was standalone under another key
 * (it formed or joined this cluster, or was renamed while standalone). A node that leaves a cluster
 * carries nothing: the cluster's other guests are not its own.
 */
export function keysToCarryOver(
  known: Entity[],
  key: string,
  nodes: Map<string, string>,
): { from: string; node: string }[] {
  const bySlug = new Map(known.map((entity) => [entity.slug, entity]));
  const found: { from: string; node: string }[] = [];
  for (const [name, slug] of nodes) {
    const entity = bySlug.get(slug);
    const previous = entity?.attributes["proxmox.cluster"];
    if (!entity || typeof previous !== "string" || previous === key || !wasStandalone(entity)) continue;
    if (!found.some((f) => f.from === previous)) found.push({ from: previous, node: name });
  }
  return found;
}

/**
 * Re-keys every entity of `from` to `to` in one transaction, audited as `proxmox.cluster_joined`.
 * A guest whose vmid is already held by a runnable guest under `to` (discovered through another node
 * meanwhile) is the same guest seen twice: the old record is kept for its history and marked
 * destroyed, superseded by the other (the database allows one runnable guest per cluster and vmid).
 */
export async function carryOverCluster(
  db: Kysely<Database>,
  change: { from: string; to: string; node: string },
  context: WriteContext,
  now: Date,
): Promise<MembershipChange> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("entities")
      .selectAll()
      .where(sql<string>`attributes->>'proxmox.cluster'`, "=", change.from)
      .execute();
    const held = await tx
      .selectFrom("entities")
      .select(["slug", "attributes"])
      .where(sql<string>`attributes->>'proxmox.cluster'`, "=", change.to)
      .where("state", "!=", "destroyed")
      .execute();
    const result: MembershipChange = { ...change, moved: [], superseded: [] };
    for (const row of rows) {
      const vmid = row.attributes["proxmox.vmid"];
      const holder =
        vmid !== undefined && row.state !== "destroyed"
          ? held.find((h) => String(h.attributes["proxmox.vmid"]) === String(vmid))
          : undefined;
      const attributes: JsonObject = { ...row.attributes, "proxmox.cluster": change.to };
      if (holder) {
        attributes["proxmox.destroyed_at"] = now.toISOString();
        attributes["proxmox.status"] = "destroyed";
        attributes["proxmox.superseded_by"] = holder.slug;
        result.superseded.push({ slug: row.slug, by: holder.slug });
      }
      await tx
        .updateTable("entities")
        .set({
          attributes: JSON.stringify(attributes),
          ...(holder ? { state: "destroyed" as EntityState } : {}),
          updated_at: now,
        })
        .where("slug", "=", row.slug)
        .execute();
      result.moved.push(row.slug);
    }
    await recordAudit(tx, context, {
      action: "proxmox.cluster_joined",
      subject: change.node,
      details: {
        from: change.from,
        to: change.to,
        node: change.node,
        entities: result.moved,
        superseded: result.superseded,
      },
    });
    return result;
  });
}
