import assert from "node:assert/strict";
import { test } from "node:test";
import { median } from "./median.ts";

test("median: middle value, mean of the two middles, NaN for nothing, input untouched", () => {
  const sample = [5, 1, 3];
  assert.equal(median(sample), 3);
  assert.deepEqual(sample, [5, 1, 3]);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([7]), 7);
  assert.ok(Number.isNaN(median([])));
});
