import type { Executor } from "./audit.ts";
import type { Outcome } from "./statuses.ts";

export interface FeedbackInput {
  sessionId: string;
  outcome: Outcome;
  planAdherence: number | null;
  rootCause: string | null;
  notes: string | null;
}

export interface FeedbackRow extends FeedbackInput {
  id: string;
  createdAt: Date;
}

/** One row per completed task: the learning job's raw material. */
export async function recordFeedback(db: Executor, input: FeedbackInput, now = new Date()): Promise<void> {
  await db
    .insertInto("feedback")
    .values({
      session_id: input.sessionId,
      outcome: input.outcome,
      plan_adherence: input.planAdherence,
      root_cause: input.rootCause,
      notes: input.notes,
      created_at: now,
    })
    .execute();
}

export async function feedbackSince(db: Executor, since: Date): Promise<FeedbackRow[]> {
  const rows = await db
    .selectFrom("feedback")
    .selectAll()
    .where("created_at", ">=", since)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    sessionId: row.session_id,
    outcome: row.outcome,
    planAdherence: row.plan_adherence,
    rootCause: row.root_cause,
    notes: row.notes,
    createdAt: row.created_at,
  }));
}
