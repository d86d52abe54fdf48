import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  BUDGET_CONFIG_KEYS,
  budgetSpent,
  DEFAULT_TURN_BUDGET,
  NOTHING_SPENT,
  type TurnBudget,
  toolCallsLeft,
} from "./turn-budget.ts";

const budget: TurnBudget = { modelCalls: 3, toolCalls: 4, refusals: 2 };
const PARTS = ["modelCalls", "toolCalls", "refusals"] as const;

describe("the turn budget", () => {
  test("nothing spent: nothing used up; each part used up exactly at its bound", () => {
    assert.equal(budgetSpent(NOTHING_SPENT, budget), null);
    for (const part of PARTS) {
      const below = { ...NOTHING_SPENT, [part]: budget[part] - 1 };
      const at = { ...NOTHING_SPENT, [part]: budget[part] };
      const beyond = { ...NOTHING_SPENT, [part]: budget[part] + 5 };
      assert.equal(budgetSpent(below, budget), null, `${part} below`);
      assert.equal(budgetSpent(at, budget), part, `${part} at`);
      assert.equal(budgetSpent(beyond, budget), part, `${part} beyond`);
    }
  });

  test("several used up: tool calls, then refusals, then model calls are named", () => {
    const all = { modelCalls: 3, toolCalls: 4, refusals: 2 };
    assert.equal(budgetSpent(all, budget), "toolCalls");
    assert.equal(budgetSpent({ ...all, toolCalls: 0 }, budget), "refusals");
    assert.equal(budgetSpent({ ...all, toolCalls: 0, refusals: 0 }, budget), "modelCalls");
  });

  test("tool calls left never goes negative", () => {
    assert.equal(toolCallsLeft(NOTHING_SPENT, budget), 4);
    assert.equal(toolCallsLeft({ ...NOTHING_SPENT, toolCalls: 3 }, budget), 1);
    assert.equal(toolCallsLeft({ ...NOTHING_SPENT, toolCalls: 9 }, budget), 0);
  });

  test("every part names the configuration key that sets it; the defaults bound a careless model", () => {
    for (const part of PARTS) assert.match(BUDGET_CONFIG_KEYS[part], /^model\.max[A-Za-z]+$/);
    assert.ok(DEFAULT_TURN_BUDGET.refusals < DEFAULT_TURN_BUDGET.modelCalls);
    assert.ok(DEFAULT_TURN_BUDGET.toolCalls >= DEFAULT_TURN_BUDGET.modelCalls);
  });
});
