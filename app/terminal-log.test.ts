import assert from "node:assert/strict";
import { test } from "node:test";
import { readableLine } from "./terminal-log.ts";

test("a JSON log record reads as one short line: icon, message, the error's first line", () => {
  assert.equal(
    readableLine('{"level":50,"msg":"chat event failed","err":{"message":"connection reset\\n    at x"}}'),
    "oikos ✖ chat event failed (connection reset)",
  );
  assert.equal(readableLine('{"level":40,"msg":"matrix: sync slow"}'), "oikos ⚠ matrix: sync slow");
  assert.equal(readableLine("not json"), "oikos ⚠ not json");
});
