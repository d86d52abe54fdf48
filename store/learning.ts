import type { Executor } from "./audit.ts";
import { taskSlug } from "./task-graph.ts";

export type PatternKind = "root_cause" | "fix";

export interface PatternInput {
  kind: PatternKind;
  /** Normalised identity of the pattern (same root cause in other words → same key). */
  key: string;
  description: string;
  occurrences: number;
  suggestedRunbook: string | null;
  lastSeenAt: Date;
  /** The entities the pattern's tasks touched (at least two of them), and the symptom their goals share. */
  entitySlugs: string[];
  symptom: string[];
}

export interface PatternRow extends PatternInput {
  id: string;
}

/** Creates or refreshes a pattern by (kind, key); occurrences are recomputed, not added to. */
export async function upsertPattern(db: Executor, input: PatternInput): Promise<"created" | "updated"> {
  const existing = await db
    .selectFrom("patterns")
    .select("id")
    .where("kind", "=", input.kind)
    .where("key", "=", input.key)
    .executeTakeFirst();
  await db
    .insertInto("patterns")
    .values({
      kind: input.kind,
      key: input.key,
      description: input.description,
      occurrences: input.occurrences,
      suggested_runbook: input.suggestedRunbook,
      last_seen_at: input.lastSeenAt,
      entity_slugs: JSON.stringify(input.entitySlugs),
      symptom: JSON.stringify(input.symptom),
    })
    .onConflict((oc) =>
      oc.columns(["kind", "key"]).doUpdateSet({
        description: input.description,
        occurrences: input.occurrences,
        suggested_runbook: input.suggestedRunbook,
        last_seen_at: input.lastSeenAt,
        entity_slugs: JSON.stringify(input.entitySlugs),
        symptom: JSON.stringify(input.symptom),
      }),
    )
    .execute();
  return existing ? "updated" : "created";
}

export async function listPatterns(db: Executor): Promise<PatternRow[]> {
  const rows = await db
    .selectFrom("patterns")
    .selectAll()
    .orderBy("occurrences", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as PatternKind,
    key: row.key,
    description: row.description,
    occurrences: row.occurrences,
    suggestedRunbook: row.suggested_runbook,
    lastSeenAt: row.last_seen_at,
    entitySlugs: row.entity_slugs,
    symptom: row.symptom,
  }));
}

export interface TaskFacts {
  sessionId: string;
  goal: string | null;
  /** The entities the task touched (its `involves` edges). */
  entities: string[];
}

/** The goal and the touched entities of each of these tasks (what a pattern links its runbook to). */
export async function taskFacts(db: Executor, sessionIds: readonly string[]): Promise<TaskFacts[]> {
  if (sessionIds.length === 0) return [];
  const sessions = await db
    .selectFrom("sessions")
    .select(["id", "goal"])
    .where("id", "in", [...sessionIds])
    .execute();
  const edges = await db
    .selectFrom("relationships")
    .select(["source_slug", "target_slug"])
    .where("type", "=", "involves")
    .where(
      "source_slug",
      "in",
      sessionIds.map((id) => taskSlug(id)),
    )
    .execute();
  return sessions.map((s) => ({
    sessionId: s.id,
    goal: s.goal,
    entities: edges
      .filter((e) => e.source_slug === taskSlug(s.id))
      .map((e) => e.target_slug)
      .sort(),
  }));
}
