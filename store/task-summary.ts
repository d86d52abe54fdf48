import type { Executor } from "./audit.ts";
import type { Execution, Session } from "./schema.ts";

/** How many entity write-backs the completion summary lists. */
const CHANGES_SHOWN = 8;

/** What the completion summary of one task shows, read in one place (bot/core/cards/summary-card.ts). */
export interface TaskSummaryFacts {
  session: Pick<Session, "goal" | "summary" | "verification" | "left_open"> | undefined;
  executions: Pick<Execution, "id" | "status" | "snapshot">[];
  knowledgeTitles: string[];
  changes: { entitySlug: string; key: string; newValue: unknown }[];
}

export async function readTaskSummaryFacts(db: Executor, sessionId: string): Promise<TaskSummaryFacts> {
  const session = await db
    .selectFrom("sessions")
    .select(["goal", "summary", "verification", "left_open"])
    .where("id", "=", sessionId)
    .executeTakeFirst();
  const executions = await db
    .selectFrom("executions")
    .select(["id", "status", "snapshot"])
    .where("session_id", "=", sessionId)
    .orderBy("created_at")
    .execute();
  const knowledge = await db
    .selectFrom("knowledge")
    .select("title")
    .where("session_id", "=", sessionId)
    .orderBy("id")
    .execute();
  const changes = await db
    .selectFrom("entity_attribute_changes")
    .select(["entity_slug", "key", "new_value"])
    .where("session_id", "=", sessionId)
    .orderBy("id")
    .limit(CHANGES_SHOWN)
    .execute();
  return {
    session,
    executions,
    knowledgeTitles: knowledge.map((k) => k.title),
    changes: changes.map((c) => ({ entitySlug: c.entity_slug, key: c.key, newValue: c.new_value })),
  };
}
