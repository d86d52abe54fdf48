import assert from "node:assert/strict";
import { test } from "node:test";
import { loadClassifier } from "../classify.ts";
import { ALL_RULES, DUPLICATE_NAMES } from "./index.ts";

const classifier = await loadClassifier();

test("no command name is claimed by two rules", () => {
  assert.deepEqual(DUPLICATE_NAMES, []);
});

test("every rule carries at least one example", () => {
  for (const rule of ALL_RULES)
    assert.ok(rule.examples.length > 0, `rule for ${rule.names.join(", ")} has no examples`);
});

for (const rule of ALL_RULES) {
  test(`rule examples: ${rule.names.slice(0, 4).join(", ")}`, () => {
    for (const [command, expected] of rule.examples) {
      const result = classifier.classify(command, "host");
      assert.equal(result.risk, expected, `${command}\n  got ${result.risk}: ${result.reasons.join(" | ")}`);
      assert.ok(result.reasons.length > 0, `${command} has no reasons`);
    }
  });
}
