import type { Kysely } from "kysely";
import type { WriteContext } from "../audit.ts";
import {
  type EntityInput,
  SECRET_ATTRIBUTE_KEY,
  type UpsertEntitiesResult,
  upsertEntities,
} from "../entities.ts";
import { createRelationship } from "../relationships.ts";
import type { Database, JsonObject } from "../schema.ts";
import type { Inventory, InventoryVars } from "./inventory.ts";

/** Implicit Ansible groups: every host is in `all`, so neither becomes an entity. */
const IMPLICIT_GROUPS = new Set(["all", "ungrouped"]);

export interface InventoryImportResult {
  entities: UpsertEntitiesResult;
  relationships: { created: string[]; unchanged: string[]; failed: { edge: string; reason: string }[] };
  warnings: string[];
}

/**
 * Upserts an inventory: hosts become `host:NAME` (ssh.host/port/user from ansible_host/port/user,
 * inherited through group vars like Ansible does), groups become `group:NAME`, and membership becomes
 * `member-of` edges (host -> group, child group -> parent group). Idempotent: a second run of the same
 * file reports everything unchanged. Secret-looking vars are never imported.
 */
export async function applyInventory(
  db: Kysely<Database>,
  inventory: Inventory,
  context: WriteContext,
): Promise<InventoryImportResult> {
  const groups = [...inventory.groups.entries()].filter(([name]) => !IMPLICIT_GROUPS.has(name));
  const entities: EntityInput[] = [
    ...groups.map(([name, group]) => ({
      slug: `group:${name}`,
      type: "group",
      name,
      transport: "none" as const,
      attributes: prefixed(group.vars),
    })),
    ...[...inventory.hosts.keys()].map((name) => hostEntity(inventory, name)),
  ];
  const entityResult = await upsertEntities(db, entities, context);

  const edges: [string, string][] = [];
  for (const [name, group] of groups) {
    for (const host of group.hosts) edges.push([`host:${host}`, `group:${name}`]);
    for (const child of group.children) {
      if (!IMPLICIT_GROUPS.has(child)) edges.push([`group:${child}`, `group:${name}`]);
    }
  }
  const relationships: InventoryImportResult["relationships"] = { created: [], unchanged: [], failed: [] };
  for (const [source, target] of edges) {
    const edge = `${source} member-of ${target}`;
    const result = await createRelationship(db, { source, target, type: "member-of" }, context);
    if (result.status === "created") relationships.created.push(edge);
    else if (result.status === "exists") relationships.unchanged.push(edge);
    else relationships.failed.push({ edge, reason: result.status });
  }
  return { entities: entityResult, relationships, warnings: inventory.warnings };
}

function hostEntity(inventory: Inventory, name: string): EntityInput {
  const own = inventory.hosts.get(name) ?? {};
  const vars = effectiveVars(inventory, name);
  // Provenance is entity_attribute_changes.changed_by (import:ansible / import:ssh-config), not an attribute:
  // one would flip back and forth when both importers know the same host.
  const attributes: JsonObject = { "ssh.host": String(vars.ansible_host ?? vars.ansible_ssh_host ?? name) };
  const port = vars.ansible_port ?? vars.ansible_ssh_port;
  if (port !== undefined) attributes["ssh.port"] = Number(port);
  const user = vars.ansible_user ?? vars.ansible_ssh_user;
  if (user !== undefined) attributes["ssh.user"] = String(user);
  const identity = vars.ansible_ssh_private_key_file ?? vars.ssh_identity_file;
  if (identity !== undefined) attributes["ssh.identity_file"] = String(identity);
  if (vars.ssh_proxy_jump !== undefined) attributes["ssh.proxy_jump"] = String(vars.ssh_proxy_jump);
  const ownVars = Object.fromEntries(Object.entries(own).filter(([key]) => !/^(ansible_|ssh_)/.test(key)));
  return {
    slug: `host:${name}`,
    type: "host",
    name,
    ...(vars.ansible_connection === "local" ? { transport: "local" as const } : {}),
    attributes: { ...prefixed(ownVars), ...attributes },
  };
}

/**
 * Ansible's precedence, simplified: `all` vars, then groups from the outermost parent inwards (ties by
 * name), then the host's own vars.
 */
function effectiveVars(inventory: Inventory, host: string): InventoryVars {
  const parents = new Map<string, string[]>();
  for (const [name, group] of inventory.groups) {
    for (const child of group.children) parents.set(child, [...(parents.get(child) ?? []), name]);
  }
  const depth = new Map<string, number>();
  const visit = (name: string, level: number, seen: Set<string>): void => {
    if (seen.has(name)) return;
    depth.set(name, Math.min(depth.get(name) ?? Number.POSITIVE_INFINITY, level));
    for (const parent of parents.get(name) ?? []) visit(parent, level - 1, new Set([...seen, name]));
  };
  for (const [name, group] of inventory.groups) if (group.hosts.has(host)) visit(name, 0, new Set());
  const ordered = [...depth.entries()]
    .filter(([name]) => name !== "all")
    .sort(([a, da], [b, db]) => da - db || a.localeCompare(b))
    .map(([name]) => inventory.groups.get(name)?.vars ?? {});
  return Object.assign({}, inventory.groups.get("all")?.vars, ...ordered, inventory.hosts.get(host));
}

/** Vars as `ansible.<key>` attributes, without anything that looks like a secret. */
function prefixed(vars: InventoryVars): JsonObject {
  return Object.fromEntries(
    Object.entries(vars)
      .filter(([key]) => !SECRET_ATTRIBUTE_KEY.test(key))
      .map(([key, value]) => [`ansible.${key}`, value]),
  );
}
