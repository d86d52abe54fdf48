import { sql } from "kysely";
import { symptomMatches } from "../policy/runbook-match.ts";
import type { Executor } from "./audit.ts";
import type { Outcome } from "./statuses.ts";

// Adopted runbooks offered again (issue #33): a runbook adopted from a pattern keeps the entities
// its tasks touched (`about`) and their shared symptom. A task is offered it once it touches one of
// those entities (or names it) and its goal says the symptom; each offer is recorded once per task,
// so a runbook's use and how those tasks ended are counted.

export interface RunbookUse {
  offered: number;
  outcomes: Record<Outcome, number>;
}

export interface OfferedRunbook {
  slug: string;
  title: string;
  entity: string;
  symptom: string[];
  /** Offers before this task, and how those tasks ended. */
  use: RunbookUse;
}

/**
 * The adopted runbooks this task is offered now: linked to an entity in play (touched or named,
 * task-graph.ts entitiesInPlay), with a symptom its text says. Each is recorded as offered to the
 * task (once), so it is counted.
 */
export async function offerRunbooks(
  db: Executor,
  task: { sessionId: string; text: string; entities: readonly string[] },
  at = new Date(),
): Promise<OfferedRunbook[]> {
  const entities = [...task.entities];
  if (entities.length === 0) return [];
  const candidates = await db
    .selectFrom("knowledge as k")
    .innerJoin("knowledge_about as a", "a.knowledge_id", "k.id")
    .select(["k.id", "k.slug", "k.title", "k.symptom", "a.entity_slug"])
    .where("k.kind", "=", "runbook")
    .where("k.superseded_by", "is", null)
    .where("k.symptom", "is not", null)
    .where("a.entity_slug", "in", entities)
    .orderBy("k.id")
    .orderBy("a.entity_slug")
    .execute();
  const matching = new Map<string, (typeof candidates)[number]>();
  for (const row of candidates)
    if (!matching.has(row.id) && symptomMatches(row.symptom ?? [], task.text)) matching.set(row.id, row);
  if (matching.size === 0) return [];
  const rows = [...matching.values()];
  const use = await runbookUse(
    db,
    rows.map((r) => r.id),
    task.sessionId,
  );
  await db
    .insertInto("runbook_offers")
    .values(
      rows.map((r) => ({
        knowledge_id: r.id,
        session_id: task.sessionId,
        entity_slug: r.entity_slug,
        offered_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(["knowledge_id", "session_id"]).doNothing())
    .execute();
  return rows.map((r) => ({
    slug: r.slug,
    title: r.title,
    entity: r.entity_slug,
    symptom: r.symptom ?? [],
    use: use.get(r.id) ?? emptyUse(),
  }));
}

function emptyUse(): RunbookUse {
  return { offered: 0, outcomes: { success: 0, partial: 0, failure: 0 } };
}

/** How often each runbook was offered (to other tasks than `except`) and how those tasks ended. */
export async function runbookUse(
  db: Executor,
  knowledgeIds: readonly string[],
  except?: string,
): Promise<Map<string, RunbookUse>> {
  const use = new Map<string, RunbookUse>();
  if (knowledgeIds.length === 0) return use;
  let query = db
    .selectFrom("runbook_offers as o")
    .innerJoin("sessions as s", "s.id", "o.session_id")
    .select(["o.knowledge_id", "s.outcome", sql<string>`count(*)`.as("n")])
    .where("o.knowledge_id", "in", [...knowledgeIds])
    .groupBy(["o.knowledge_id", "s.outcome"]);
  if (except) query = query.where("o.session_id", "!=", except);
  for (const row of await query.execute()) {
    const entry = use.get(row.knowledge_id) ?? emptyUse();
    entry.offered += Number(row.n);
    if (row.outcome) entry.outcomes[row.outcome] += Number(row.n);
    use.set(row.knowledge_id, entry);
  }
  return use;
}

/** The runbooks offered to a task, for its plan card. */
export async function runbooksOfferedTo(
  db: Executor,
  sessionId: string,
): Promise<{ slug: string; title: string; entity: string }[]> {
  return db
    .selectFrom("runbook_offers as o")
    .innerJoin("knowledge as k", "k.id", "o.knowledge_id")
    .select(["k.slug", "k.title", "o.entity_slug as entity"])
    .where("o.session_id", "=", sessionId)
    .orderBy("o.offered_at")
    .execute();
}

/** The use of the runbook a slug names (for `!patterns`): how often offered, how those tasks ended. */
export async function runbookUseBySlug(db: Executor, slug: string): Promise<RunbookUse | null> {
  const row = await db.selectFrom("knowledge").select("id").where("slug", "=", slug).executeTakeFirst();
  if (!row) return null;
  return (await runbookUse(db, [row.id])).get(row.id) ?? emptyUse();
}
