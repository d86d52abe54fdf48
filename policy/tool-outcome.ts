import { z } from "zod";
import { isRefusalCode, REFUSALS } from "./refusals.ts";

/**
 * The closed set of `kind`s a tool result carries in its MCP `structuredContent` (mcp-server
 * declares each tool's `outputSchema` from these), and the rule the agent loop applies to them:
 * after some results the only correct move is to wait for the operator, so the turn ends there.
 * The structure, not the prompt, makes the model stop; nothing reads the result's wording.
 */
export const TOOL_OUTCOME_KINDS = {
  // run, run_many, inspect_path, get_execution_status, cancel_execution
  finished: { endsTurn: false },
  pending: { endsTurn: false },
  approval_requested: { endsTurn: true },
  cancelled: { endsTurn: false },
  fan_out: { endsTurn: false },
  // run_many / inspect_path where every target was refused: nothing ran, retrying the same call
  // cannot help, the operator decides (a fleet audit with dead hosts ends here, not at the round cap)
  // the operator is told why per target by the result's `message` (the model is not asked again)
  fan_out_refused: { endsTurn: true, tellsOperator: true },
  // the task tools (start_session: outside clients only)
  session_started: { endsTurn: false },
  goal_set: { endsTurn: false },
  goal_unchanged: { endsTurn: false },
  plan_awaiting_approval: { endsTurn: true },
  plan_accepted: { endsTurn: false },
  step_updated: { endsTurn: false },
  question_asked: { endsTurn: true },
  task_completed: { endsTurn: true },
  // propose_entities (a new target's routing is asked as approval_requested)
  entities_proposed: { endsTurn: false },
  // any tool: policy/refusals.ts decides per code
  refused: { endsTurn: false },
} as const satisfies Record<string, { endsTurn: boolean; tellsOperator?: true }>;

export type ToolOutcomeKind = keyof typeof TOOL_OUTCOME_KINDS;

const outcomeHead = z.object({ kind: z.string(), code: z.string().optional() });

/**
 * Whether a tool result's structured content ends the agent's turn: a result kind that waits for
 * the operator, or a refusal whose code says so. Anything unreadable (no structured content, an
 * unknown kind) does not end it.
 */
export function outcomeEndsTurn(structured: unknown): boolean {
  const head = outcomeHead.safeParse(structured);
  if (!head.success) return false;
  const { kind, code } = head.data;
  if (kind === "refused") return isRefusalCode(code) && REFUSALS[code].endsTurn;
  return Object.hasOwn(TOOL_OUTCOME_KINDS, kind) && TOOL_OUTCOME_KINDS[kind as ToolOutcomeKind].endsTurn;
}

const operatorNote = z.object({ kind: z.string(), message: z.string().min(1) });

/**
 * The words a turn-ending result says to the operator itself, or null: for kinds marked
 * `tellsOperator` the result's `message` (why, per target); the model gets no further call in that
 * turn, so without this the thread would go quiet.
 */
export function operatorNoteOf(structured: unknown): string | null {
  const note = operatorNote.safeParse(structured);
  if (!note.success || !Object.hasOwn(TOOL_OUTCOME_KINDS, note.data.kind)) return null;
  const kind = TOOL_OUTCOME_KINDS[note.data.kind as ToolOutcomeKind];
  return "tellsOperator" in kind && kind.tellsOperator ? note.data.message : null;
}
