import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkTiming, peakOverlap, type TimingFigures } from "./timing.ts";

const figures: TimingFigures = {
  run_ms: 12_000,
  first_answer_ms: 3_000,
  peak_executions: 4,
  longest_execution_ms: 2_500,
  sessions: 20,
};

describe("timing from stored timestamps", () => {
  test("peak overlap counts spans open at once; touching spans do not overlap", () => {
    assert.equal(peakOverlap([]), 0);
    assert.equal(
      peakOverlap([
        [0, 10],
        [10, 20],
      ]),
      1,
    );
    assert.equal(
      peakOverlap([
        [0, 10],
        [5, 15],
        [6, 7],
        [14, 30],
      ]),
      3,
    );
  });

  test("a ms figure over its bound is a note within the slack and a failure beyond it", () => {
    const failures: string[] = [];
    const notes: string[] = [];
    checkTiming({ run_ms: { max: 10_000 } }, figures, failures, notes, 2);
    assert.deepEqual(failures, []);
    assert.match(notes[0]!, /run_ms 12000 over its bound 10000 \(within slack 2\)/);
    checkTiming({ run_ms: { max: 5_000 } }, figures, failures, notes, 2);
    assert.match(failures[0]!, /run_ms 12000 over its bound 5000 × slack 2/);
  });

  test("counts are exact, not slackened", () => {
    const failures: string[] = [];
    checkTiming({ peak_executions: { min: 5 }, sessions: 20 }, figures, failures, [], 10);
    assert.deepEqual(failures, ["peak_executions: expected at least 5, got 4"]);
  });
});
