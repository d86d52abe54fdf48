import type { Kysely } from "kysely";
import { type CardKind, planSubject } from "./chat-cards.ts";
import type { Database } from "./schema.ts";

export interface PendingCardSubject {
  sessionId: string;
  platform: string;
  kind: CardKind;
  subjectId: string;
}

/** How far back a closed task whose summary never reached its room is still told. */
export const UNPOSTED_SUMMARY_LOOKBACK_MS = 24 * 60 * 60_000;

/**
 * Plans awaiting a decision, pending approvals and open questions of sessions on `platforms`, and
 * the summaries of tasks closed in the last day that no card records (the platform was down, or
 * the process was stopping when complete_task committed).
 */
export async function pendingCardSubjects(
  db: Kysely<Database>,
  platforms: readonly string[],
): Promise<PendingCardSubject[]> {
  if (platforms.length === 0) return [];
  const plans = await db
    .selectFrom("plans")
    .innerJoin("sessions", "sessions.id", "plans.session_id")
    .select(["plans.session_id as sessionId", "plans.generation", "sessions.platform"])
    .where("plans.status", "=", "proposed")
    .where("sessions.platform", "in", platforms)
    .execute();
  const approvals = await db
    .selectFrom("approvals")
    .innerJoin("sessions", "sessions.id", "approvals.session_id")
    .select(["approvals.id", "approvals.session_id as sessionId", "sessions.platform"])
    .where("approvals.status", "=", "pending")
    .where("sessions.platform", "in", platforms)
    .execute();
  const questions = await db
    .selectFrom("questions")
    .innerJoin("sessions", "sessions.id", "questions.session_id")
    .select(["questions.id", "questions.session_id as sessionId", "sessions.platform"])
    .where("questions.status", "=", "open")
    .where("sessions.platform", "in", platforms)
    .execute();
  const summaries = await db
    .selectFrom("sessions")
    .select(["sessions.id as sessionId", "sessions.platform"])
    .where("sessions.status", "in", ["done", "failed"])
    .where("sessions.outcome", "is not", null)
    .where("sessions.closed_at", ">=", new Date(Date.now() - UNPOSTED_SUMMARY_LOOKBACK_MS))
    .where("sessions.platform", "in", platforms)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("chat_cards")
            .select("chat_cards.subject_id")
            .whereRef("chat_cards.session_id", "=", "sessions.id")
            .where("chat_cards.kind", "=", "summary"),
        ),
      ),
    )
    .execute();
  return [
    ...summaries.map((s) => ({ ...s, kind: "summary" as const, subjectId: s.sessionId })),
    ...plans.map((p) => ({
      sessionId: p.sessionId,
      platform: p.platform,
      kind: "plan" as const,
      subjectId: planSubject(p.sessionId, p.generation),
    })),
    ...approvals.map((a) => ({ ...a, kind: "approval" as const, subjectId: a.id })),
    ...questions.map((q) => ({ ...q, kind: "question" as const, subjectId: q.id })),
  ].map(({ sessionId, platform, kind, subjectId }) => ({ sessionId, platform, kind, subjectId }));
}
