import { redact } from "../policy/redact.ts";
import type { RefusalShown } from "../policy/refusal-identity.ts";
import { BUDGET_CONFIG_KEYS, type BudgetSpent, type TurnBudget } from "../policy/turn-budget.ts";
import { agentMessage } from "../store/domain-events.ts";
import { appendMessage } from "../store/messages.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";
import { BUDGET_SPENT_NOTE } from "./operator-hold.ts";

/** At most this many refusals are listed for the operator (the newest). */
const REFUSALS_SHOWN = 6;

/**
 * The turn spent its tool calls or its refusals (policy/turn-budget.ts): oikos itself tells the
 * operator why it stopped and what they can do — no further model call — and the model is told once,
 * in the transcript. The session then waits for the operator (agent/operator-hold.ts).
 */
export async function endOnSpentBudget(
  deps: AgentDeps,
  sessionId: string,
  spent: Exclude<BudgetSpent, "modelCalls">,
  budget: TurnBudget,
  refusals: readonly RefusalShown[],
): Promise<void> {
  const key = BUDGET_CONFIG_KEYS[spent];
  const why =
    spent === "toolCalls"
      ? `I stopped this turn: it made ${budget.toolCalls} tool calls, the most one turn may make (${key}).`
      : `I stopped this turn: oikos refused ${budget.refusals} of my calls in it, the most one turn may ` +
        `have (${key}), so I am not getting anywhere on my own.`;
  const shown = refusals.slice(-REFUSALS_SHOWN).map((r) => `- ${r.target ? `${r.target}: ` : ""}${r.reason}`);
  const operatorText =
    `${why}\n` +
    (shown.length > 0
      ? `What was refused${refusals.length > shown.length ? " (the latest)" : ""}:\n${shown.join("\n")}\n`
      : "") +
    'Nothing more runs until you answer: reply "continue" to let me go on, or tell me what to change.';
  await deps.events.publish(agentMessage({ sessionId, text: redact(operatorText), final: true }));
  const modelNote =
    spent === "toolCalls"
      ? `oikos ended your turn: it made ${budget.toolCalls} tool calls, this turn's budget. The operator was told. `
      : `oikos ended your turn: ${budget.refusals} of your calls were refused in it, this turn's budget. ` +
        "The operator was told. Read each refusal's next_step before you call again. ";
  await appendMessage(
    deps.db,
    {
      sessionId,
      role: "system",
      content: `${modelNote}Wait for their answer; then take the shortest way to the goal.`,
      name: BUDGET_SPENT_NOTE,
      author: "oikos",
    },
    clockOf(deps),
  );
}
