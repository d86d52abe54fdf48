import { noteSinceOperator } from "../store/messages.ts";
import type { AgentDeps } from "./agent-deps.ts";

/** The note of a turn ended because the model repeated a refused call (agent/repeated-refusal.ts). */
export const REPEATED_REFUSAL_NOTE = "turn-ended:repeated-refusal";
/** The note of a turn ended because it spent its budget (agent/budget-spent.ts). */
export const BUDGET_SPENT_NOTE = "turn-ended:budget";

/**
 * A turn that ended because the model was not making progress on its own (a repeated refusal, a
 * spent budget) leaves the session waiting for the operator: results that arrive meanwhile are
 * stored, but only the operator's next message or decision calls the model again. Neither note is
 * input (store/messages.ts hasInputAfter), so neither starts a turn.
 */
export async function heldForOperator(deps: Pick<AgentDeps, "db">, sessionId: string): Promise<boolean> {
  return noteSinceOperator(deps.db, sessionId, [REPEATED_REFUSAL_NOTE, BUDGET_SPENT_NOTE]);
}
