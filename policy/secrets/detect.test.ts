import assert from "node:assert/strict";
import { test } from "node:test";
import { LOOKALIKE_SAMPLES } from "../../test-support/secret-samples/lookalike-samples.ts";
import { SECRET_SAMPLES } from "../../test-support/secret-samples/secret-samples.ts";
import { shannonEntropy } from "./detect.ts";

/** gitleaks' measure as it was written: a Map of code points, summed in insertion order. */
function referenceEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  const length = [...value].length;
  for (const count of counts.values()) {
    const p = count / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

test("shannonEntropy is the Map-based measure to the last bit (rules compare it with <=)", () => {
  const values = ["", "a", "aaaa", "ab", "Tr0ub4dor3x", "é", "aé", "😀😀a", "\u212Ak", "\u007f\u0080"];
  for (const sample of [...SECRET_SAMPLES, ...LOOKALIKE_SAMPLES]) {
    values.push(sample.text, ...sample.text.split(/[\s=:"']+/));
  }
  let seed = 0xe7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  for (let i = 0; i < 5_000; i++) {
    let value = "";
    const length = Math.floor(random() * 60);
    const alphabet = 2 + Math.floor(random() * 94);
    for (let k = 0; k < length; k++) value += String.fromCharCode(32 + Math.floor(random() * alphabet));
    values.push(value);
  }
  for (const value of values)
    assert.equal(shannonEntropy(value), referenceEntropy(value), JSON.stringify(value));
});
