import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ORACLE_OBSERVED_CORPUS } from "../classifier-corpus/oracle-observed.ts";
import { observe } from "./observe.ts";
import { OracleSandbox, oracleUnavailable } from "./sandbox.ts";

/**
 * The corpus rows whose labels the execution oracle observed, run again in its sandbox: a label
 * that no longer matches what the command does is drift. A file of its own, beside oracle.test.ts,
 * so the two run side by side (each starts its own sandbox).
 */
const unavailable = oracleUnavailable();
let sandbox: OracleSandbox | undefined;

before(async () => {
  if (!unavailable) sandbox = await OracleSandbox.start(2);
});
after(async () => {
  await sandbox?.close();
});

test("the oracle-observed corpus rows still do what their labels say", {
  skip: unavailable ?? false,
}, async () => {
  const observed = ORACLE_OBSERVED_CORPUS.filter((row) => row[3].startsWith("observed"));
  const runs = await (sandbox as OracleSandbox).run(observed.map((row) => row[0]));
  const drift = observed
    .map((row, i) => ({ row, seen: observe(runs[i]?.trace ?? "") }))
    .filter(({ row, seen }) => seen.floor !== row[1])
    .map(
      ({ row, seen }) =>
        `${JSON.stringify(row[0])}: labelled ${row[1]}, now ${seen.floor} (${seen.effects.join("; ")})`,
    );
  assert.deepEqual(drift, []);
});
