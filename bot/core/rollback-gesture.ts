import type { Kysely } from "kysely";
import type { CardRecord } from "../../store/chat-cards.ts";
import { splitPlanSubject } from "../../store/chat-cards.ts";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import type { Database } from "../../store/schema.ts";

/** ⏪ (and the names platforms give it): ask to roll back what the card shows. */
export function isRollbackReaction(key: string): boolean {
  const k = key
    .trim()
    .replace(/\u{fe0f}/gu, "")
    .replace(/^:|:$/g, "");
  return k === "⏪" || k === "rewind" || k === "arrow_backward_double";
}

/**
 * The execution a ⏪ on this card asks to undo: the approval card's own execution; on a plan card or
 * the task summary, the latest execution of that plan / task with a snapshot still to roll back to.
 */
export async function executionToRollBack(db: Kysely<Database>, card: CardRecord): Promise<string | null> {
  if (card.kind === "approval") {
    const approval = await db
      .selectFrom("approvals")
      .select("execution_id")
      .where("id", "=", card.subjectId)
      .executeTakeFirst();
    return approval?.execution_id ?? null;
  }
  if (!card.sessionId || (card.kind !== "summary" && card.kind !== "plan")) return null;
  let query = db
    .selectFrom("executions")
    .select(["id", "snapshot"])
    .where("session_id", "=", card.sessionId)
    .where("snapshot", "is not", null);
  if (card.kind === "plan") query = query.where("plan_generation", "=", splitPlanSubject(card.subjectId)[1]);
  const rows = await query.orderBy("created_at", "desc").execute();
  const open = rows.find((row) => {
    const snapshot = readExecutionSnapshot(row.snapshot);
    return snapshot?.state === "taken" && !snapshot.rolledBackAt && !snapshot.removedAt;
  });
  return open?.id ?? null;
}
