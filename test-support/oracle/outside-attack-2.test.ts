import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { judgeTrace } from "./judge.ts";
import { braceAttacks, KEYWORD_EXEC, shoptAttacks } from "./outside-attack-2.ts";
import { OracleSandbox, oracleUnavailable } from "./sandbox.ts";

/**
 * The second outside attack, run for real: every generated command runs in the oracle's sandbox
 * whatever the classifier says, and none that the oracle sees writing, running an unnamed program
 * or signalling may be read_only. The class must also be visible to the oracle (a check that
 * cannot fail proves nothing): the brace forms of `find /tmp -delete` unlink, the keyword form runs.
 */
const unavailable = oracleUnavailable();
const classifier = await loadClassifier();
let sandbox: OracleSandbox | undefined;

before(async () => {
  if (!unavailable) sandbox = await OracleSandbox.start(2);
});
after(async () => {
  await sandbox?.close();
});

test("generated brace and shopt attacks: nothing the oracle sees acting is read_only", {
  skip: unavailable ?? false,
}, async () => {
  const commands = [
    ...new Set([...braceAttacks(), ...shoptAttacks().map((s) => `${s}; ls /etc`), KEYWORD_EXEC]),
  ];
  const runs = await (sandbox as OracleSandbox).run(commands);
  const acting: string[] = [];
  const wrong: string[] = [];
  for (const run of runs) {
    const result = classifier.classify(run.command, "host");
    const judgement = judgeTrace(run.trace, new Set(result.programs ?? []));
    assert.ok(judgement.started, `the sandbox never started ${JSON.stringify(run.command)}`);
    if (judgement.violations.length === 0) continue;
    acting.push(run.command);
    if (result.risk === "read_only") {
      wrong.push(`${JSON.stringify(run.command)}: ${judgement.violations.map((v) => v.why).join("; ")}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(acting.includes(KEYWORD_EXEC), "the oracle saw the keyword attack run touch");
  assert.ok(acting.includes("find {/tmp,-delete}"), "the oracle saw the brace form of find -delete unlink");
});
