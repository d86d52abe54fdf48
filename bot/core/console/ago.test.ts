import assert from "node:assert/strict";
import { test } from "node:test";
import { inTime } from "./ago.ts";

test("inTime never says more time is left than there is: seconds below two minutes, then whole units down", () => {
  const now = new Date("2030-01-01T12:00:00Z");
  const left = (ms: number) => inTime(new Date(now.getTime() + ms), now);
  assert.equal(left(25_000), "in 25 s", "25 s is not “1 min”");
  assert.equal(left(24_100), "in 25 s");
  assert.equal(left(119_000), "in 119 s");
  assert.equal(left(150_000), "in 2 min");
  assert.equal(left(29 * 60_000 + 59_000), "in 29 min");
  assert.equal(left(3 * 3_600_000 + 10_000), "in 3 h");
  assert.equal(left(0), "now");
  assert.equal(left(-5_000), "now");
});
