import { sql } from "kysely";
import type { Executor } from "./audit.ts";
import type { Entity, Execution } from "./schema.ts";
import { ENTITY_STATES, type EntityState } from "./statuses.ts";

/** The operator's read of the graph: entities by one word, and what recently ran on one. */
export type EntitySelector =
  | { by: "all" }
  | { by: "state"; state: EntityState }
  | { by: "type"; type: string }
  | { by: "group"; group: string };

/** One word picks the filter: a state (`retired` is `destroyed`), a type in use, else a group or tag. */
export async function entitySelector(db: Executor, word: string | undefined): Promise<EntitySelector> {
  if (!word) return { by: "all" };
  const w = word.toLowerCase();
  const state = w === "retired" ? "destroyed" : w;
  if ((ENTITY_STATES as readonly string[]).includes(state))
    return { by: "state", state: state as EntityState };
  const type = await db.selectFrom("entities").select("type").where("type", "=", w).executeTakeFirst();
  if (type) return { by: "type", type: w };
  return { by: "group", group: w.replace(/^(group|tag):/, "") };
}

const LIMIT = 50;

/** Entities the selector names, by slug; destroyed ones only when the state asks for them. */
export async function selectEntities(db: Executor, selector: EntitySelector): Promise<Entity[]> {
  let query = db.selectFrom("entities").selectAll();
  if (selector.by === "state") query = query.where("state", "=", selector.state);
  else query = query.where("state", "!=", "destroyed");
  if (selector.by === "type") query = query.where("type", "=", selector.type);
  // tasks are entities too (store/task-graph.ts), listed only when asked for by type
  else query = query.where("type", "!=", "task");
  if (selector.by === "group") {
    const group = selector.group;
    query = query.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom("relationships")
            .select("relationships.id")
            .whereRef("relationships.source_slug", "=", "entities.slug")
            .where("relationships.type", "=", "member-of")
            .where("relationships.target_slug", "=", `group:${group}`),
        ),
        eb(sql<boolean>`entities.attributes -> 'tags' @> ${JSON.stringify([group])}::jsonb`, "=", true),
      ]),
    );
  }
  return query.orderBy("slug").limit(LIMIT).execute();
}

/** The latest executions on a target, newest first. */
export async function recentExecutionsOn(db: Executor, target: string, limit = 5): Promise<Execution[]> {
  return db
    .selectFrom("executions")
    .selectAll()
    .where("target", "=", target)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}

/**
 * When an entity was last looked at: its latest finished execution and its latest attribute
 * write. A same-day re-audit is usually waste; the agent and the operator both see this.
 */
export interface LastTouched {
  ranAt: Date | null;
  ranCommand: string | null;
  writtenAt: Date | null;
}

export async function lastTouched(db: Executor, slugs: readonly string[]): Promise<Map<string, LastTouched>> {
  const out = new Map<string, LastTouched>();
  if (slugs.length === 0) return out;
  for (const slug of slugs) out.set(slug, { ranAt: null, ranCommand: null, writtenAt: null });
  // One round trip (each costs milliseconds on embedded PGlite; search_knowledge asks on every call):
  // the latest finished run per target only (executions_target_finished, migrations/0220), since a
  // host's whole history would otherwise come back on every search that mentions it, and the latest
  // attribute write per entity.
  const runs = db
    .selectFrom((eb) =>
      eb
        .selectFrom("executions")
        .distinctOn("target")
        .select(["target", "command", "finished_at"])
        .where("target", "in", [...slugs])
        .where("finished_at", "is not", null)
        .where("status", "in", ["completed", "failed", "timed_out"])
        .orderBy("target")
        .orderBy("finished_at", "desc")
        .as("latest"),
    )
    .select([
      sql<"run" | "write">`'run'`.as("touch"),
      "latest.target as slug",
      sql<Date>`latest.finished_at`.as("at"),
      sql<string | null>`latest.command`.as("command"),
    ]);
  const writes = db
    .selectFrom("entity_attribute_changes")
    .select((eb) => [
      sql<"run" | "write">`'write'`.as("touch"),
      "entity_slug as slug",
      sql<Date>`${eb.fn.max("changed_at")}`.as("at"),
      sql<string | null>`NULL`.as("command"),
    ])
    .where("entity_slug", "in", [...slugs])
    .groupBy("entity_slug");
  for (const row of await runs.unionAll(writes).execute()) {
    const entry = out.get(row.slug)!;
    if (row.touch === "write") entry.writtenAt = new Date(row.at);
    else if (entry.ranAt === null) Object.assign(entry, { ranAt: new Date(row.at), ranCommand: row.command });
  }
  return out;
}
