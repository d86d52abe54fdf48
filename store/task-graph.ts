import { sql } from "kysely";
import type { Executor } from "./audit.ts";
import { type DomainEvent, entityTouched } from "./domain-events.ts";
import type { Outcome, SessionStatus, TouchVia } from "./statuses.ts";

// Every task is an entity, `task:<session>`, with one `involves` edge to each entity it touched
// (migrations/0360). The gates write them — the run service when a command for a target passes, the
// knowledge and write-back tools when they write about an entity, discovery when it sees one — never
// the model. One edge per (task, entity) however often: the edge counts its touches.

export const TASK_ENTITY_TYPE = "task";

export function taskSlug(sessionId: string): string {
  return `task:${sessionId}`;
}

export interface TouchResult {
  task: string;
  /** The entities this touch involved for the first time (their edge was written now). */
  firstTouched: string[];
  /** What the caller publishes once the touch is committed: one `entity.touched` per first touch. */
  events: DomainEvent[];
}

/**
 * Records that a task touched these entities: the task entity (created once), one `involves` edge per
 * entity (created once, its touch count and last touch updated after). Slugs that are not entities,
 * and task entities, are left out. Safe under concurrent calls: every write is an upsert on its key.
 */
export async function touchEntities(
  db: Executor,
  input: { sessionId: string; slugs: readonly string[]; via: TouchVia; at?: Date },
): Promise<TouchResult> {
  const task = taskSlug(input.sessionId);
  const at = (input.at ?? new Date()).toISOString();
  const wanted = [...new Set(input.slugs)].filter((slug) => slug !== task);
  const none: TouchResult = { task, firstTouched: [], events: [] };
  if (wanted.length === 0) return none;
  const existing = await db
    .selectFrom("entities")
    .select("slug")
    .where("slug", "in", wanted)
    .where("type", "!=", TASK_ENTITY_TYPE)
    .execute();
  const slugs = existing.map((row) => row.slug).sort();
  if (slugs.length === 0) return none;
  await db
    .insertInto("entities")
    .values({
      slug: task,
      type: TASK_ENTITY_TYPE,
      name: `task ${input.sessionId}`,
      transport: "none",
      attributes: JSON.stringify({ session: input.sessionId }),
      parent_slug: null,
    })
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
  const inserted = await db
    .insertInto("relationships")
    .values(
      slugs.map((slug) => ({
        source_slug: task,
        target_slug: slug,
        type: "involves",
        attributes: JSON.stringify({
          touches: 1,
          first_at: at,
          last_at: at,
          first_via: input.via,
          last_via: input.via,
        }),
        created_by: "oikos",
      })),
    )
    .onConflict((oc) => oc.columns(["source_slug", "target_slug", "type"]).doNothing())
    .returning("target_slug")
    .execute();
  const firstTouched = inserted.map((row) => row.target_slug).sort();
  const again = slugs.filter((slug) => !firstTouched.includes(slug));
  if (again.length > 0) {
    await db
      .updateTable("relationships")
      .set({
        attributes: sql`attributes || jsonb_build_object(
          'touches', coalesce((attributes->>'touches')::int, 1) + 1,
          'last_at', ${at}::text, 'last_via', ${input.via}::text)`,
      })
      .where("source_slug", "=", task)
      .where("type", "=", "involves")
      .where("target_slug", "in", again)
      .execute();
  }
  return {
    task,
    firstTouched,
    events: firstTouched.map((entitySlug) =>
      entityTouched({ sessionId: input.sessionId, entitySlug, via: input.via }),
    ),
  };
}

export interface TaskThatTouched {
  sessionId: string;
  goal: string | null;
  status: SessionStatus;
  outcome: Outcome | null;
  summary: string | null;
  closedAt: Date | null;
  touches: number;
  lastTouchedAt: Date;
  /** The knowledge this task wrote (as it stands now; a later task's update takes it over). */
  knowledge: { slug: string; kind: string; title: string }[];
}

/** The last tasks that touched an entity, newest touch first, with how they ended and what they wrote. */
export async function tasksThatTouched(db: Executor, slug: string, limit = 5): Promise<TaskThatTouched[]> {
  const rows = await db
    .selectFrom("relationships as r")
    .innerJoin("entities as t", "t.slug", "r.source_slug")
    .innerJoin("sessions as s", (join) => join.on(sql`s.id`, "=", sql`t.attributes->>'session'`))
    .select([
      "s.id",
      "s.goal",
      "s.status",
      "s.outcome",
      "s.summary",
      "s.closed_at",
      sql<string>`r.attributes->>'touches'`.as("touches"),
      sql<string>`r.attributes->>'last_at'`.as("last_at"),
    ])
    .where("r.target_slug", "=", slug)
    .where("r.type", "=", "involves")
    .where("t.type", "=", TASK_ENTITY_TYPE)
    .orderBy(sql`r.attributes->>'last_at'`, "desc")
    .orderBy("s.id")
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const written = await db
    .selectFrom("knowledge")
    .select(["session_id", "slug", "kind", "title"])
    .where(
      "session_id",
      "in",
      rows.map((row) => row.id),
    )
    .where("superseded_by", "is", null)
    .orderBy("updated_at", "desc")
    .execute();
  return rows.map((row) => ({
    sessionId: row.id,
    goal: row.goal,
    status: row.status,
    outcome: row.outcome,
    summary: row.summary,
    closedAt: row.closed_at,
    touches: Number(row.touches ?? 1),
    lastTouchedAt: new Date(row.last_at),
    knowledge: written
      .filter((k) => k.session_id === row.id)
      .map((k) => ({ slug: k.slug, kind: k.kind, title: k.title })),
  }));
}

/** The entities a task touched, by slug. */
export async function entitiesTouchedBy(db: Executor, sessionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("relationships")
    .select("target_slug")
    .where("source_slug", "=", taskSlug(sessionId))
    .where("type", "=", "involves")
    .orderBy("target_slug")
    .execute();
  return rows.map((row) => row.target_slug);
}

/** Entity slugs a text names (`lxc:nextcloud`), as written. */
function slugsNamedIn(text: string): string[] {
  return [...new Set(text.match(/\b[a-z][a-z0-9-]*:[a-z0-9][a-z0-9._-]*/g) ?? [])];
}

/**
 * The entities in play for a task: those it touched, then those its text (goal, the operator's last
 * words) names by slug. What its context is about: adopted runbooks, live standing grants.
 */
export async function entitiesInPlay(db: Executor, sessionId: string, text: string): Promise<string[]> {
  return [...new Set([...(await entitiesTouchedBy(db, sessionId)), ...slugsNamedIn(text)])];
}
