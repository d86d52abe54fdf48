import assert from "node:assert/strict";
import { test } from "node:test";
import { PATHOLOGICAL_SHAPES } from "../../test-support/secret-samples/pathological.ts";
import { redact } from "../redact.ts";

// Redaction runs on every output, message and log line: a pattern that backtracks quadratically
// would stall the worker on one hostile output. Each shape, repeated to 128 KiB, must get through
// every rule. At that size a quadratic rule needs ~10^10 steps (minutes), a linear one milliseconds:
// the timeout below is a hang guard, not a speed assertion (speed is `npm run bench`).
const SIZE = 128 * 1024;

for (const [name, shape] of Object.entries(PATHOLOGICAL_SHAPES)) {
  test(`redaction stays linear on ${name}`, { timeout: 60_000 }, () => {
    let text = "";
    while (text.length < SIZE) text += `${shape}\n`;
    assert.equal(typeof redact(text), "string");
  });
}
