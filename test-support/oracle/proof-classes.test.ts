import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadClassifier } from "../../policy/classify.ts";
import { judgeTrace } from "./judge.ts";
import { CLASS_LOOK_ALIKES, classAttacks } from "./proof-classes.ts";
import { OracleSandbox, oracleUnavailable } from "./sandbox.ts";

/**
 * Issue #34's classes, run for real: the oracle must see every attack act (whatever the classifier
 * says: a check that cannot fail proves nothing), and none of them may be read_only; their
 * look-alikes stay read_only and do nothing.
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

test("every generated attack acts in the sandbox, and none is read_only", {
  skip: unavailable ?? false,
}, async () => {
  const attacks = classAttacks();
  assert.ok(attacks.length >= 50, `${attacks.length} generated`);
  const runs = await (sandbox as OracleSandbox).run(attacks.map((a) => a.command));
  const unseen: string[] = [];
  const wrong: string[] = [];
  for (const [i, run] of runs.entries()) {
    const attack = attacks[i];
    if (!attack) continue;
    const result = classifier.classify(run.command, "host");
    const judgement = judgeTrace(run.trace, new Set(result.programs ?? []));
    const acted = judgement.violations.length > 0 || (attack.class === "endless" && run.timedOut);
    if (!acted) unseen.push(`${attack.class}: ${JSON.stringify(run.command)}`);
    if (result.risk === "read_only")
      wrong.push(
        `${attack.class}: ${JSON.stringify(run.command)} ${judgement.violations.map((v) => v.why).join("; ")}`,
      );
  }
  assert.deepEqual(unseen, [], "the oracle must see each attack's effect");
  assert.deepEqual(wrong, []);
});

test("the look-alikes stay read_only and do nothing", { skip: unavailable ?? false }, async () => {
  const runs = await (sandbox as OracleSandbox).run(CLASS_LOOK_ALIKES);
  const wrong: string[] = [];
  for (const run of runs) {
    const result = classifier.classify(run.command, "host");
    if (result.risk !== "read_only") {
      wrong.push(`${JSON.stringify(run.command)}: ${result.risk} ${result.reasons[0]}`);
      continue;
    }
    const judgement = judgeTrace(run.trace, new Set(result.programs ?? []), {
      network: (result.grants ?? []).some((g) => g.resource === "network"),
    });
    assert.ok(judgement.started, run.command);
    if (judgement.violations.length > 0 || run.timedOut)
      wrong.push(`${JSON.stringify(run.command)}: ${judgement.violations.map((v) => v.why).join("; ")}`);
  }
  assert.deepEqual(wrong, []);
});
