import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { operatorNoteOf, outcomeEndsTurn, TOOL_OUTCOME_KINDS } from "./tool-outcome.ts";

describe("what a turn-ending result tells the operator itself", () => {
  test("every target of a fan-out refused: its message (why, per target) goes to the operator", () => {
    const result = {
      kind: "fan_out_refused",
      results: [],
      message: "Every target was refused, nothing ran:\nlxc:db2: retry_cap — …",
      next_step: "END YOUR TURN NOW …",
    };
    assert.equal(outcomeEndsTurn(result), true);
    assert.equal(operatorNoteOf(result), result.message);
  });

  test("only kinds marked tellsOperator speak; their words for the model stay with the model", () => {
    for (const kind of Object.keys(TOOL_OUTCOME_KINDS)) {
      const note = operatorNoteOf({ kind, message: "words" });
      const marked = (TOOL_OUTCOME_KINDS as Record<string, { tellsOperator?: true }>)[kind]!.tellsOperator;
      assert.equal(note, marked ? "words" : null, kind);
    }
    // approval_requested's message is an instruction to the model ("END YOUR TURN NOW"): never posted
    assert.equal(operatorNoteOf({ kind: "approval_requested", message: "END YOUR TURN NOW" }), null);
  });

  test("a marked kind without a message, or anything unreadable, says nothing", () => {
    assert.equal(operatorNoteOf({ kind: "fan_out_refused" }), null);
    assert.equal(operatorNoteOf({ kind: "fan_out_refused", message: "" }), null);
    assert.equal(operatorNoteOf({ kind: "no_such_kind", message: "x" }), null);
    assert.equal(operatorNoteOf(null), null);
    assert.equal(operatorNoteOf("fan_out_refused"), null);
  });

  test("every kind that tells the operator also ends the turn", () => {
    for (const [kind, rule] of Object.entries(TOOL_OUTCOME_KINDS)) {
      if ("tellsOperator" in rule) assert.equal(rule.endsTurn, true, kind);
    }
  });
});
