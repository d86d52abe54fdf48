import { isDeepStrictEqual } from "node:util";
import type { Kysely } from "kysely";
import { z } from "zod";
import { checkEntityType } from "../policy/entity-types.ts";
import { type Executor, recordAudit, type WriteContext } from "./audit.ts";
import type { DomainEvent } from "./domain-events.ts";
import { listEntityTypes } from "./entity-types.ts";
import type { Database, Entity, JsonObject } from "./schema.ts";

import { ENTITY_STATES, ENTITY_TRANSPORTS, type EntityState } from "./statuses.ts";
import { touchEntities } from "./task-graph.ts";

export type { Entity } from "./schema.ts";

export { ENTITY_STATES, ENTITY_TRANSPORTS, type EntityState, type EntityTransport } from "./statuses.ts";

/** Attribute keys that look like secrets: the graph is model context, so these never go in. */
export const SECRET_ATTRIBUTE_KEY =
  /(^|[._-])pass($|[._-])|password|passphrase|secret|token|private[_-]?key(?!_file)|api[_-]?key|credential/i;

/** `type:name`, e.g. `host:hubris`, `lxc:gitea`, `group:proxmox`. */
export const entitySlugSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]*:[^\s]+$/, "an entity slug looks like type:name, e.g. host:hubris or lxc:gitea");

export const entityInputSchema = z.object({
  slug: entitySlugSchema,
  type: z.string().regex(/^[a-z][a-z0-9-]*$/),
  name: z.string().min(1),
  state: z.enum(ENTITY_STATES).optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  transport: z.enum(ENTITY_TRANSPORTS).optional(),
  parentSlug: entitySlugSchema.nullable().optional(),
});
export type EntityInput = z.infer<typeof entityInputSchema>;

export interface UpsertEntitiesResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  failed: { slug: string; reason: string }[];
}

/**
 * Creates or updates entities by slug (the one entry point for importers and discovery jobs).
 * Attributes merge shallowly; every changed key is recorded with who/when so facts carry their age.
 * Returns per-entity outcomes; an entity whose parent is unknown is reported in `failed`, the rest still land.
 */
export async function upsertEntities(
  db: Kysely<Database>,
  inputs: EntityInput[],
  context: WriteContext,
): Promise<UpsertEntitiesResult> {
  const result: UpsertEntitiesResult = { created: [], updated: [], unchanged: [], failed: [] };
  const parsed = inputs.map((input) => entityInputSchema.parse(input));
  await db.transaction().execute(async (tx) => {
    const batchSlugs = new Set(parsed.map((input) => input.slug));
    const types = await listEntityTypes(tx);
    for (const input of parsed) {
      const typeCheck = checkEntityType(types, input.type, "write");
      if (!typeCheck.ok) {
        result.failed.push({
          slug: input.slug,
          reason: `${typeCheck.reason} ${typeCheck.nextStep.replace(/\.$/, "")}`,
        });
        continue;
      }
      const parent = input.parentSlug ?? null;
      if (parent && !batchSlugs.has(parent) && !(await findEntity(tx, parent))) {
        result.failed.push({ slug: input.slug, reason: `parent ${parent} does not exist` });
        continue;
      }
      const outcome = await upsertOne(tx, { ...input, parentSlug: undefined }, context);
      result[outcome].push(input.slug);
    }
    // Parents are linked after every entity of the batch exists, so input order does not matter.
    for (const input of parsed) {
      if (input.parentSlug === undefined || result.failed.some((f) => f.slug === input.slug)) continue;
      const current = await findEntity(tx, input.slug);
      if (!current || current.parent_slug === input.parentSlug) continue;
      await tx
        .updateTable("entities")
        .set({ parent_slug: input.parentSlug, updated_at: new Date() })
        .where("slug", "=", input.slug)
        .execute();
      if (result.unchanged.includes(input.slug)) {
        result.unchanged = result.unchanged.filter((slug) => slug !== input.slug);
        result.updated.push(input.slug);
      }
    }
    if (result.created.length + result.updated.length > 0) {
      await recordAudit(tx, context, {
        action: "entities.upsert",
        subject: null,
        details: { created: result.created, updated: result.updated },
      });
    }
  });
  return result;
}

async function upsertOne(
  tx: Executor,
  input: EntityInput,
  context: WriteContext,
): Promise<"created" | "updated" | "unchanged"> {
  const existing = await findEntity(tx, input.slug);
  const attributes = input.attributes ?? {};
  if (!existing) {
    await tx
      .insertInto("entities")
      .values({
        slug: input.slug,
        type: input.type,
        name: input.name,
        ...(input.state ? { state: input.state } : {}),
        ...(input.transport ? { transport: input.transport } : {}),
        attributes: JSON.stringify(attributes),
        parent_slug: null,
      })
      .execute();
    await recordAttributeChanges(tx, input.slug, {}, attributes, context);
    return "created";
  }
  const merged = mergeAttributes(existing.attributes, attributes);
  const changedKeys = await recordAttributeChanges(tx, input.slug, existing.attributes, merged, context);
  const fieldsChanged =
    existing.type !== input.type ||
    existing.name !== input.name ||
    (input.state !== undefined && existing.state !== input.state) ||
    (input.transport !== undefined && existing.transport !== input.transport);
  if (!fieldsChanged && changedKeys.length === 0) return "unchanged";
  await tx
    .updateTable("entities")
    .set({
      type: input.type,
      name: input.name,
      ...(input.state ? { state: input.state } : {}),
      ...(input.transport ? { transport: input.transport } : {}),
      attributes: JSON.stringify(merged),
      updated_at: new Date(),
    })
    .where("slug", "=", input.slug)
    .execute();
  return "updated";
}

/** Shallow merge; a `null` value removes the key. */
export function mergeAttributes(current: JsonObject, patch: JsonObject): JsonObject {
  const merged: JsonObject = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

async function recordAttributeChanges(
  tx: Executor,
  slug: string,
  before: JsonObject,
  after: JsonObject,
  context: WriteContext,
): Promise<string[]> {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed = [...keys].filter((key) => !isDeepStrictEqual(before[key], after[key])).sort();
  if (changed.length === 0) return changed;
  await tx
    .insertInto("entity_attribute_changes")
    .values(
      changed.map((key) => ({
        entity_slug: slug,
        key,
        old_value: key in before ? JSON.stringify(before[key]) : null,
        new_value: key in after ? JSON.stringify(after[key]) : null,
        changed_by: context.by,
        session_id: context.sessionId ?? null,
      })),
    )
    .execute();
  return changed;
}

export interface AttributeUpdateResult {
  changed: string[];
  attributes: JsonObject;
  /** `entity.touched` when a task wrote back about this entity for the first time; the caller publishes it. */
  events: DomainEvent[];
}

/**
 * Shallow-merges attributes into one entity (null deletes a key), records each changed key, audits the
 * write and marks the session as having written back what it learned. Returns null for an unknown slug.
 */
export async function updateEntityAttributes(
  db: Kysely<Database>,
  slug: string,
  patch: JsonObject,
  context: WriteContext,
): Promise<AttributeUpdateResult | null> {
  return db.transaction().execute(async (tx) => {
    const existing = await findEntity(tx, slug);
    if (!existing) return null;
    const merged = mergeAttributes(existing.attributes, patch);
    const changed = await recordAttributeChanges(tx, slug, existing.attributes, merged, context);
    if (changed.length > 0) {
      await tx
        .updateTable("entities")
        .set({ attributes: JSON.stringify(merged), updated_at: new Date() })
        .where("slug", "=", slug)
        .execute();
    }
    await recordAudit(tx, context, {
      action: "entity.update_attributes",
      subject: slug,
      details: { changed },
    });
    if (!context.sessionId) return { changed, attributes: merged, events: [] };
    await tx
      .updateTable("sessions")
      .set({ entity_writeback: true, updated_at: new Date() })
      .where("id", "=", context.sessionId)
      .execute();
    const touched = await touchEntities(tx, {
      sessionId: context.sessionId,
      slugs: [slug],
      via: "writeback",
    });
    return { changed, attributes: merged, events: touched.events };
  });
}

export async function findEntity(db: Executor, slug: string): Promise<Entity | undefined> {
  return db.selectFrom("entities").selectAll().where("slug", "=", slug).executeTakeFirst();
}

/** The entities of these slugs (those that exist). */
export async function findEntities(db: Executor, slugs: readonly string[]): Promise<Entity[]> {
  if (slugs.length === 0) return [];
  return db
    .selectFrom("entities")
    .selectAll()
    .where("slug", "in", [...slugs])
    .execute();
}

/** Slug, name and attributes of every entity that is not destroyed (what alert labels are matched on). */
export async function liveEntityIdentities(
  db: Executor,
): Promise<Pick<Entity, "slug" | "name" | "attributes">[]> {
  return db
    .selectFrom("entities")
    .select(["slug", "name", "attributes"])
    .where("state", "!=", "destroyed")
    .where("type", "!=", "task")
    .execute();
}

/** The slugs of every entity that is not destroyed. */
export async function liveEntitySlugs(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom("entities")
    .select("slug")
    .where("state", "!=", "destroyed")
    .where("type", "!=", "task")
    .execute();
  return rows.map((row) => row.slug);
}

/** Every slug, for "did you mean" suggestions (a homelab has hundreds of entities, not millions). */
export async function listEntitySlugs(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom("entities").select("slug").orderBy("slug").execute();
  return rows.map((row) => row.slug);
}

export interface EntityFilter {
  type?: string;
  state?: EntityState;
  query?: string;
  includeDestroyed?: boolean;
}

/** Entities ordered by slug; destroyed ones only when asked (or when the state filter names them). */
export async function listEntities(
  db: Executor,
  filter: EntityFilter,
  page: { offset: number; limit: number },
): Promise<{ entities: Entity[]; hasMore: boolean }> {
  let query = db.selectFrom("entities").selectAll();
  // tasks are entities too (store/task-graph.ts), listed only when asked for by type
  query = query.where("type", filter.type ? "=" : "!=", filter.type ?? "task");
  if (filter.state) query = query.where("state", "=", filter.state);
  else if (!filter.includeDestroyed) query = query.where("state", "!=", "destroyed");
  if (filter.query) {
    const pattern = `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb("slug", "ilike", pattern), eb("name", "ilike", pattern)]));
  }
  const rows = await query
    .orderBy("slug")
    .offset(page.offset)
    .limit(page.limit + 1)
    .execute();
  return { entities: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/** When each attribute key last changed (provenance / age of a fact). */
export async function attributeChangedAt(db: Executor, slug: string): Promise<Record<string, Date>> {
  const rows = await db
    .selectFrom("entity_attribute_changes")
    .select(["key", (eb) => eb.fn.max("changed_at").as("changed_at")])
    .where("entity_slug", "=", slug)
    .groupBy("key")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.key, new Date(row.changed_at)]));
}
