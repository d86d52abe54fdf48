/**
 * Labels the oracle-observed corpus (test-support/classifier-corpus/oracle-observed.ts): every adversarial
 * template of the fuzzer, with a few payloads each, is run in the sandbox whatever the classifier
 * says, and labelled by what it did (observe.ts). Where the sandbox cannot show the effect (a
 * program it does not have, a service, the network), the row keeps the label its template
 * intends and says so. Run by hand as root: `node test-support/oracle/label-corpus.ts`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { loadClassifier } from "../../policy/classify.ts";
import type { Risk } from "../../policy/risk.ts";
import { enumerateTemplates } from "./fuzz.ts";
import { observe } from "./observe.ts";
import { OracleSandbox, oracleUnavailable } from "./sandbox.ts";

const OUT = new URL("../classifier-corpus/oracle-observed.ts", import.meta.url);

function inSandbox(program: string): boolean {
  return ["/usr/bin/", "/usr/sbin/"].some((dir) => existsSync(`${dir}${program}`));
}

const unavailable = oracleUnavailable();
if (unavailable) throw new Error(unavailable);
const classifier = await loadClassifier();
const candidates = enumerateTemplates();
const sandbox = await OracleSandbox.start(2);
const runs = await sandbox.run(candidates.map((c) => c.command));
await sandbox.close();
const rows: string[] = [];
for (const [i, candidate] of candidates.entries()) {
  const run = runs[i];
  if (!run) continue;
  const seen = observe(run.trace);
  const programs = classifier.classify(candidate.command, "host").commands;
  const complete = !run.timedOut && programs.every(inSandbox);
  let label: Risk;
  let basis: string;
  if (seen.floor !== "read_only") {
    label = seen.floor;
    basis = `observed: ${seen.effects.slice(0, 3).join("; ")}`;
  } else {
    // Nothing observed is not proof of harmlessness: the payload may need a precondition the
    // sandbox lacks (a git repository, a big input, a failing first command).
    label = candidate.intended;
    const why = run.timedOut
      ? "timed out"
      : complete
        ? "no effect in this run"
        : `needs ${programs.filter((p) => !inSandbox(p)).join(", ")}`;
    basis = `intended (the oracle saw nothing: ${why})`;
  }
  rows.push(
    `  [${JSON.stringify(candidate.command)}, "${label}", "${candidate.family}", ${JSON.stringify(basis)}],`,
  );
}
const header = `import type { Risk } from "../../policy/risk.ts";

/**
 * Adversarial rows across the five classes, labelled by what the execution oracle observed when
 * each command ran in its sandbox (test-support/oracle/label-corpus.ts wrote this file; the
 * oracle test re-runs the observed rows). \`basis\` says whether the label is an observation or,
 * where the sandbox cannot show the effect, the label the row's template intends. These rows are
 * the team's own (see README.md beside this file): a floor, not a held-out measurement.
 */
export type ObservedRow = readonly [command: string, label: Risk, family: string, basis: string];

export const ORACLE_OBSERVED_CORPUS: readonly ObservedRow[] = [
`;
writeFileSync(OUT, `${header}${rows.join("\n")}\n];\n`);
console.log(`wrote ${rows.length} rows to ${OUT.pathname}`);
execFileSync("npx", ["biome", "format", "--write", OUT.pathname], { stdio: "inherit" });
