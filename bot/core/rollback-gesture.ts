import { getApproval } from "../../store/approvals.ts";
import type { CardRecord } from "../../store/chat-cards.ts";
import { splitPlanSubject } from "../../store/chat-cards.ts";
import type { Db } from "../../store/db.ts";
import { readExecutionSnapshot } from "../../store/execution-snapshot.ts";
import { snapshotsOfSession } from "../../store/executions.ts";

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
export async function executionToRollBack(db: Db, card: CardRecord): Promise<string | null> {
  if (card.kind === "approval") {
    const approval = await getApproval(db, card.subjectId);
    return approval?.execution_id ?? null;
  }
  if (!card.sessionId || (card.kind !== "summary" && card.kind !== "plan")) return null;
  const generation = card.kind === "plan" ? splitPlanSubject(card.subjectId)[1] : undefined;
  const rows = await snapshotsOfSession(db, card.sessionId, generation);
  const open = rows.find((row) => {
    const snapshot = readExecutionSnapshot(row.snapshot);
    return snapshot?.state === "taken" && !snapshot.rolledBackAt && !snapshot.removedAt;
  });
  return open?.id ?? null;
}
