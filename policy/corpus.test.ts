import assert from "node:assert/strict";
import { test } from "node:test";
import { CORPUS } from "../test-support/classifier-corpus/index.ts";
import { ORACLE_OBSERVED_CORPUS } from "../test-support/classifier-corpus/oracle-observed.ts";
import { loadClassifier } from "./classify.ts";
import { riskRank } from "./risk.ts";

const classifier = await loadClassifier();

test("the corpus is big enough and has enough hidden-danger forms", () => {
  assert.ok(CORPUS.length >= 400, `corpus has ${CORPUS.length} commands`);
  assert.ok(CORPUS.filter((entry) => entry.adversarial).length >= 60);
  for (const label of ["read_only", "config_mutation", "destructive", "reject"] as const) {
    assert.ok(
      CORPUS.some((entry) => entry.label === label),
      `no ${label} entries`,
    );
  }
});

test("no destructive command is classified below destructive, no non-read-only as read_only", (t) => {
  const unsafe: string[] = [];
  const disagreements: string[] = [];
  let agree = 0;
  for (const entry of CORPUS) {
    const result = classifier.classify(entry.command, "host");
    if (result.risk === entry.label) agree++;
    else
      disagreements.push(
        `${entry.label} -> ${result.risk}: ${JSON.stringify(entry.command)} (${result.reasons[0]})`,
      );
    const tooLow =
      (entry.label === "destructive" && riskRank(result.risk) < riskRank("destructive")) ||
      (entry.label !== "read_only" && result.risk === "read_only") ||
      (entry.label === "reject" && result.risk !== "reject");
    if (tooLow) unsafe.push(`${entry.label} classified ${result.risk}: ${JSON.stringify(entry.command)}`);
  }
  const percent = ((agree / CORPUS.length) * 100).toFixed(1);
  t.diagnostic(`classifier agreement: ${agree}/${CORPUS.length} (${percent}%)`);
  console.log(`classifier agreement: ${agree}/${CORPUS.length} (${percent}%)`);
  for (const line of disagreements) t.diagnostic(line);
  assert.deepEqual(unsafe, []);
});

test("every corpus command is classified exactly as labelled", () => {
  const wrong = CORPUS.filter((entry) => classifier.classify(entry.command, "host").risk !== entry.label).map(
    (entry) => `${entry.label}: ${entry.command}`,
  );
  assert.deepEqual(wrong, []);
});

test("oracle-observed rows: never read_only unless observed harmless, destructive when observed destructive", (t) => {
  assert.ok(ORACLE_OBSERVED_CORPUS.length >= 300, `only ${ORACLE_OBSERVED_CORPUS.length} observed rows`);
  const families = new Set(ORACLE_OBSERVED_CORPUS.map((row) => row[2]));
  for (const family of ["parse", "builtin", "environment", "flags", "destruction"]) {
    assert.ok(families.has(family), `no ${family} rows`);
  }
  const low: string[] = [];
  for (const [command, label, family, basis] of ORACLE_OBSERVED_CORPUS) {
    const risk = classifier.classify(command, "host").risk;
    const tooLow =
      (label !== "read_only" && risk === "read_only") ||
      (label === "destructive" && riskRank(risk) < riskRank("destructive"));
    if (tooLow) low.push(`${label} (${family}, ${basis}) classified ${risk}: ${JSON.stringify(command)}`);
  }
  const destructive = ORACLE_OBSERVED_CORPUS.filter((row) => row[1] === "destructive").length;
  t.diagnostic(`oracle-observed corpus: ${ORACLE_OBSERVED_CORPUS.length} rows, ${destructive} destructive`);
  assert.deepEqual(low, []);
});
