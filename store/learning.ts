import type { Executor } from "./audit.ts";

export type PatternKind = "root_cause" | "fix";

export interface PatternInput {
  kind: PatternKind;
  /** Normalised identity of the pattern (same root cause in other words → same key). */
  key: string;
  description: string;
  occurrences: number;
  suggestedRunbook: string | null;
  lastSeenAt: Date;
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
    })
    .onConflict((oc) =>
      oc.columns(["kind", "key"]).doUpdateSet({
        description: input.description,
        occurrences: input.occurrences,
        suggested_runbook: input.suggestedRunbook,
        last_seen_at: input.lastSeenAt,
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
  }));
}
