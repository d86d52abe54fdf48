import type { Kysely } from "kysely";
import { type Executor, recordAudit, type WriteContext } from "./audit.ts";
import type { DomainEvent } from "./domain-events.ts";
import { findEntity } from "./entities.ts";
import type { Database } from "./schema.ts";
import { touchEntities } from "./task-graph.ts";

export interface RelationshipType {
  name: string;
  description: string;
  sourceTypes: string[];
  targetTypes: string[];
  dependentSide: "source" | "target" | null;
}

export async function listRelationshipTypes(db: Executor): Promise<RelationshipType[]> {
  const rows = await db.selectFrom("relationship_types").selectAll().orderBy("name").execute();
  return rows.map((row) => ({
    name: row.name,
    description: row.description,
    sourceTypes: row.source_types,
    targetTypes: row.target_types,
    dependentSide: row.dependent_side,
  }));
}

export interface RelationshipInput {
  source: string;
  target: string;
  type: string;
}

/** Outcome of create_relationship; refusals are data the caller turns into a message. */
export type CreateRelationshipResult =
  | { status: "created" | "exists"; events: DomainEvent[] }
  | { status: "unknown_entity"; slug: string }
  | { status: "invalid_type"; validTypes: RelationshipType[] }
  | {
      status: "type_not_allowed";
      relationshipType: RelationshipType;
      sourceType: string;
      targetType: string;
    };

/** Validates against relationship_types (allowed source/target entity types) and inserts once. */
export async function createRelationship(
  db: Kysely<Database>,
  input: RelationshipInput,
  context: WriteContext,
): Promise<CreateRelationshipResult> {
  return db.transaction().execute(async (tx) => {
    const types = await listRelationshipTypes(tx);
    const relationshipType = types.find((t) => t.name === input.type);
    if (!relationshipType) return { status: "invalid_type", validTypes: types };
    const source = await findEntity(tx, input.source);
    if (!source) return { status: "unknown_entity", slug: input.source };
    const target = await findEntity(tx, input.target);
    if (!target) return { status: "unknown_entity", slug: input.target };
    if (
      !allows(relationshipType.sourceTypes, source.type) ||
      !allows(relationshipType.targetTypes, target.type)
    ) {
      return {
        status: "type_not_allowed",
        relationshipType,
        sourceType: source.type,
        targetType: target.type,
      };
    }
    const inserted = await tx
      .insertInto("relationships")
      .values({
        source_slug: input.source,
        target_slug: input.target,
        type: input.type,
        attributes: JSON.stringify({}),
        created_by: context.by,
      })
      .onConflict((oc) => oc.columns(["source_slug", "target_slug", "type"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    const touched = context.sessionId
      ? await touchEntities(tx, {
          sessionId: context.sessionId,
          slugs: [input.source, input.target],
          via: "writeback",
        })
      : undefined;
    const events = touched?.events ?? [];
    if (!inserted) return { status: "exists", events };
    await recordAudit(tx, context, {
      action: "relationship.create",
      subject: `${input.source} ${input.type} ${input.target}`,
      details: { ...input },
    });
    return { status: "created", events };
  });
}

function allows(allowed: string[], entityType: string): boolean {
  return allowed.length === 0 || allowed.includes(entityType);
}

export interface RelationRow {
  source: string;
  type: string;
  target: string;
}

export type RelationDirection = "out" | "in" | "both";

export async function getRelations(
  db: Executor,
  slug: string,
  filter: { direction: RelationDirection; type?: string },
  page: { offset: number; limit: number },
): Promise<{ relations: RelationRow[]; hasMore: boolean }> {
  let query = db.selectFrom("relationships").select(["source_slug", "type", "target_slug"]);
  query = query.where((eb) => {
    const sides = [];
    if (filter.direction !== "in") sides.push(eb("source_slug", "=", slug));
    if (filter.direction !== "out") sides.push(eb("target_slug", "=", slug));
    return eb.or(sides);
  });
  if (filter.type) query = query.where("type", "=", filter.type);
  const rows = await query
    .orderBy("type")
    .orderBy("source_slug")
    .orderBy("target_slug")
    .offset(page.offset)
    .limit(page.limit + 1)
    .execute();
  return {
    relations: rows
      .slice(0, page.limit)
      .map((row) => ({ source: row.source_slug, type: row.type, target: row.target_slug })),
    hasMore: rows.length > page.limit,
  };
}

export interface BlastRadiusNode {
  slug: string;
  depth: number;
  /** The edge that made this entity a dependent: `<dependent> <type> <dependency>` as stored. */
  via: RelationRow;
}

export interface BlastRadius {
  root: string;
  dependents: BlastRadiusNode[];
  /** True when the depth or size bound cut the walk short. */
  truncated: boolean;
}

/**
 * Everything that depends on `root`, transitively: breadth-first over relationships whose type has a
 * dependent side, one query per level. A visited set makes cycles terminate; depth and size are bounded.
 */
export async function blastRadius(
  db: Executor,
  root: string,
  bounds: { maxDepth: number; maxNodes: number },
): Promise<BlastRadius> {
  const types = await listRelationshipTypes(db);
  const dependentSideOf = new Map(types.map((t) => [t.name, t.dependentSide]));
  const typesWhoseDependentIs = (side: "source" | "target") =>
    types.filter((t) => t.dependentSide === side).map((t) => t.name);
  const sourceDependent = typesWhoseDependentIs("source");
  const targetDependent = typesWhoseDependentIs("target");
  const visited = new Set([root]);
  const dependents: BlastRadiusNode[] = [];
  let frontier = [root];
  let truncated = false;
  for (let depth = 1; frontier.length > 0; depth++) {
    const edges = await db
      .selectFrom("relationships")
      .select(["source_slug", "type", "target_slug"])
      // Only edges whose dependency end is in the frontier: each side is one index's range
      // (relationships_target, the unique key's source_slug) instead of every edge touching it.
      .where((eb) =>
        eb.or([
          eb.and([eb("target_slug", "in", frontier), eb("type", "in", [...sourceDependent, ""])]),
          eb.and([eb("source_slug", "in", frontier), eb("type", "in", [...targetDependent, ""])]),
        ]),
      )
      .orderBy("source_slug")
      .orderBy("target_slug")
      .execute();
    const next: string[] = [];
    for (const edge of edges) {
      const side = dependentSideOf.get(edge.type);
      // The dependent is the `side` end; it joins only when the other end is in the current frontier.
      const dependent = side === "source" ? edge.source_slug : side === "target" ? edge.target_slug : null;
      const dependency = side === "source" ? edge.target_slug : edge.source_slug;
      if (!dependent || !frontier.includes(dependency) || visited.has(dependent)) continue;
      if (depth > bounds.maxDepth || dependents.length >= bounds.maxNodes) {
        truncated = true;
        break;
      }
      visited.add(dependent);
      next.push(dependent);
      dependents.push({
        slug: dependent,
        depth,
        via: { source: edge.source_slug, type: edge.type, target: edge.target_slug },
      });
    }
    if (truncated) break;
    frontier = next;
  }
  return { root, dependents, truncated };
}
