/**
 * What one agent turn may spend, so a careless model is bounded even when every call it makes is new:
 * model calls (rounds: `model.maxIterations`), tool calls (`model.maxToolCallsPerTurn`) and refused
 * tool calls (`model.maxRefusalsPerTurn`: a model that is refused again and again for different
 * reasons is not reading the refusals). A repeated refusal ends the turn at once on its own
 * (refusal-identity.ts); this is the bound on everything else.
 */
export interface TurnBudget {
  modelCalls: number;
  toolCalls: number;
  refusals: number;
}

export const DEFAULT_TURN_BUDGET: TurnBudget = { modelCalls: 12, toolCalls: 40, refusals: 6 };

/** Which part of the budget ran out: the closed set the agent and the operator's message name. */
export type BudgetSpent = keyof TurnBudget;

export const BUDGET_CONFIG_KEYS: Readonly<Record<BudgetSpent, string>> = {
  modelCalls: "model.maxIterations",
  toolCalls: "model.maxToolCallsPerTurn",
  refusals: "model.maxRefusalsPerTurn",
};

export interface TurnSpending {
  modelCalls: number;
  toolCalls: number;
  refusals: number;
}

export const NOTHING_SPENT: TurnSpending = { modelCalls: 0, toolCalls: 0, refusals: 0 };

/**
 * The first part of the budget this spending has used up (tool calls, then refusals, then model
 * calls), or null while every part has some left. Used up means spent >= the budget: the turn does
 * nothing more of that kind.
 */
export function budgetSpent(spent: TurnSpending, budget: TurnBudget): BudgetSpent | null {
  for (const part of ["toolCalls", "refusals", "modelCalls"] as const) {
    if (spent[part] >= budget[part]) return part;
  }
  return null;
}

/** How many more tool calls the turn may make (never negative). */
export function toolCallsLeft(spent: TurnSpending, budget: TurnBudget): number {
  return Math.max(0, budget.toolCalls - spent.toolCalls);
}
