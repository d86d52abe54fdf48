import type { Kysely } from "kysely";
import { type CardKind, planSubject } from "./chat-cards.ts";
import type { Database } from "./schema.ts";

export interface PendingCardSubject {
  sessionId: string;
  platform: string;
  kind: CardKind;
  subjectId: string;
}

/** Plans awaiting a decision, pending approvals and open questions of sessions on `platforms`. */
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
  return [
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
