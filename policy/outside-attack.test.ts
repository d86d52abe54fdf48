import assert from "node:assert/strict";
import { test } from "node:test";
import { OUTSIDE_ATTACK_CORPUS } from "../test-support/classifier-corpus/outside-attack.ts";
import { OUTSIDE_ATTACK_BENIGN } from "../test-support/classifier-corpus/outside-attack-benign.ts";
import { loadClassifier } from "./classify.ts";
import { riskRank } from "./risk.ts";

const classifier = await loadClassifier();

test("outside-attack rows: never read_only, at least destructive when labelled so", (t) => {
  const low: string[] = [];
  for (const [command, label, family, basis] of OUTSIDE_ATTACK_CORPUS) {
    const risk = classifier.classify(command, "host").risk;
    const tooLow =
      (label !== "read_only" && risk === "read_only") ||
      (label === "destructive" && riskRank(risk) < riskRank("destructive"));
    if (tooLow) low.push(`${label} (${family}, ${basis}) classified ${risk}: ${JSON.stringify(command)}`);
  }
  t.diagnostic(`outside-attack corpus: ${OUTSIDE_ATTACK_CORPUS.length} rows`);
  assert.deepEqual(low, []);
});

test("the read-only look-alikes of the outside attacks stay read_only", () => {
  const blocked = OUTSIDE_ATTACK_BENIGN.map((command) => ({
    command,
    result: classifier.classify(command, "host"),
  }))
    .filter(({ result }) => result.risk !== "read_only")
    .map(({ command, result }) => `${result.risk}: ${JSON.stringify(command)} (${result.reasons[0]})`);
  assert.deepEqual(blocked, []);
});
