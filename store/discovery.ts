import type { Kysely } from "kysely";
import type { ContainmentType, EntityDecision, KnownEntity } from "../policy/discovery.ts";
import { recordAudit, type WriteContext } from "./audit.ts";
import type { DomainEvent } from "./domain-events.ts";
import { mergeAttributes } from "./entities.ts";
import { listRelationshipTypes } from "./relationships.ts";
import type { Database, JsonObject } from "./schema.ts";
import { touchEntities } from "./task-graph.ts";

/** The edges that say an entity runs inside, or is part of, another, in the order they are preferred. */
const CONTAINMENT = ["runs-on", "part-of"];

/** What propose_entities decides on: the entities that exist among these slugs, and the containment types. */
export async function discoveryFacts(
  db: Kysely<Database>,
  slugs: readonly string[],
): Promise<{ existing: Map<string, KnownEntity>; containment: ContainmentType[] }> {
  // The ownership chain above every named entity too, so "seen from the execution's target" can be decided.
  const rows = await withAncestors(db, slugs);
  const types = await listRelationshipTypes(db);
  return {
    existing: new Map(
      rows.map((row) => [
        row.slug,
        { type: row.type, discovered: row.discovered_at !== null, parent: row.parent_slug },
      ]),
    ),
    containment: CONTAINMENT.flatMap((name) => types.filter((t) => t.name === name)),
  };
}

async function withAncestors(db: Kysely<Database>, slugs: readonly string[]) {
  const found = new Map<
    string,
    { slug: string; type: string; discovered_at: Date | null; parent_slug: string | null }
  >();
  let wanted = [...new Set(slugs)];
  for (let level = 0; wanted.length > 0 && level < 6; level++) {
    const rows = await db
      .selectFrom("entities")
      .select(["slug", "type", "discovered_at", "parent_slug"])
      .where("slug", "in", wanted)
      .execute();
    for (const row of rows) found.set(row.slug, row);
    wanted = rows.flatMap((row) => (row.parent_slug && !found.has(row.parent_slug) ? [row.parent_slug] : []));
  }
  return [...found.values()];
}

type WriteDecision = Extract<EntityDecision, { kind: "write" }>;

export interface DiscoveryRecord {
  sessionId: string;
  execution: { id: string; command: string };
  entities: readonly WriteDecision[];
  /** The evidence listed every `type` inside `inside`: discovered ones it did not list become stale. */
  completeFor?: { inside: string; type: string };
  at?: Date;
}

export interface DiscoveryResult {
  created: string[];
  refreshed: string[];
  annotated: string[];
  edges: string[];
  stale: string[];
  events: DomainEvent[];
}

/**
 * Writes what the agent discovered, in one transaction: new entities marked discovered and never
 * runnable (transport none), seen-again ones refreshed (no longer stale), the operator's own
 * entities only annotated with facts; one sighting per entity with its evidence (the execution, its
 * command and the line that showed it); the edge to what each runs inside; the discovered entities
 * the evidence no longer lists marked stale (kept, never deleted); the task's `involves` edges.
 */
export async function recordDiscovery(
  db: Kysely<Database>,
  input: DiscoveryRecord,
  context: WriteContext,
): Promise<DiscoveryResult> {
  const at = input.at ?? new Date();
  return db.transaction().execute(async (tx) => {
    const result: DiscoveryResult = {
      created: [],
      refreshed: [],
      annotated: [],
      edges: [],
      stale: [],
      events: [],
    };
    // Parents first: an entity proposed inside another of the same call needs it to exist.
    const ordered = [...input.entities].sort(
      (a, b) => depthOf(a, input.entities) - depthOf(b, input.entities),
    );
    for (const entity of ordered) {
      const current = await tx
        .selectFrom("entities")
        .selectAll()
        .where("slug", "=", entity.slug)
        .executeTakeFirst();
      if (!current) {
        await tx
          .insertInto("entities")
          .values({
            slug: entity.slug,
            type: entity.type,
            name: entity.name,
            transport: "none",
            attributes: JSON.stringify(entity.attributes),
            parent_slug: entity.inside,
            discovered_at: at,
            last_seen_at: at,
          })
          .execute();
        result.created.push(entity.slug);
      } else {
        const merged = mergeAttributes(current.attributes, entity.attributes as JsonObject);
        await tx
          .updateTable("entities")
          .set({
            attributes: JSON.stringify(merged),
            ...(entity.action === "refresh" ? { last_seen_at: at, stale_since: null } : {}),
            updated_at: at,
          })
          .where("slug", "=", entity.slug)
          .execute();
        result[entity.action === "refresh" ? "refreshed" : "annotated"].push(entity.slug);
      }
      await tx
        .insertInto("entity_sightings")
        .values({
          entity_slug: entity.slug,
          session_id: input.sessionId,
          execution_id: input.execution.id,
          command: input.execution.command,
          evidence: entity.evidence,
          seen_at: at,
        })
        .execute();
      if (entity.inside && entity.edge) {
        const edge = await tx
          .insertInto("relationships")
          .values({
            source_slug: entity.slug,
            target_slug: entity.inside,
            type: entity.edge,
            attributes: JSON.stringify({ discovered: true }),
            created_by: context.by,
          })
          .onConflict((oc) => oc.columns(["source_slug", "target_slug", "type"]).doNothing())
          .returning("id")
          .executeTakeFirst();
        if (edge) result.edges.push(`${entity.slug} ${entity.edge} ${entity.inside}`);
      }
    }
    if (input.completeFor) {
      const seen = input.entities.map((e) => e.slug);
      const stale = await tx
        .updateTable("entities")
        .set({ stale_since: at, updated_at: at })
        .where("parent_slug", "=", input.completeFor.inside)
        .where("type", "=", input.completeFor.type)
        .where("discovered_at", "is not", null)
        .where("stale_since", "is", null)
        .$if(seen.length > 0, (q) => q.where("slug", "not in", seen))
        .returning("slug")
        .execute();
      result.stale = stale.map((row) => row.slug).sort();
    }
    // Discovery is write-back: complete_task's no_writeback gate counts it.
    await tx
      .updateTable("sessions")
      .set({ entity_writeback: true, updated_at: at })
      .where("id", "=", input.sessionId)
      .execute();
    const touched = await touchEntities(tx, {
      sessionId: input.sessionId,
      slugs: input.entities.map((e) => e.slug),
      via: "discovery",
      at,
    });
    result.events = touched.events;
    await recordAudit(tx, context, {
      action: "entities.discovered",
      subject: null,
      details: {
        execution: input.execution.id,
        created: result.created,
        refreshed: result.refreshed,
        annotated: result.annotated,
        edges: result.edges,
        stale: result.stale,
      },
    });
    return result;
  });
}

function depthOf(entity: WriteDecision, all: readonly WriteDecision[], seen = new Set<string>()): number {
  const parent = entity.inside ? all.find((e) => e.slug === entity.inside) : undefined;
  if (!parent || seen.has(parent.slug)) return 0;
  seen.add(entity.slug);
  return 1 + depthOf(parent, all, seen);
}
