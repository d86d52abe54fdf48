/**
 * Labels the outside-attack corpus (test-support/classifier-corpus/outside-attack.ts) from outside-attack-rows.ts:
 * every row runs in the oracle's sandbox whatever the classifier says and is labelled by what it
 * did (observe.ts); where the sandbox cannot show the effect (a device, a service, the network, a
 * program it lacks) the row keeps its intended label and says so. As root:
 * `node test-support/oracle/label-outside-attack.ts`.
 */
import { writeFileSync } from "node:fs";
import { riskRank } from "../../policy/risk.ts";
import { observe } from "./observe.ts";
import { OUTSIDE_ATTACK_ROWS } from "./outside-attack-rows.ts";
import { OracleSandbox, oracleUnavailable } from "./sandbox.ts";

const OUT = new URL("../classifier-corpus/outside-attack.ts", import.meta.url);

const unavailable = oracleUnavailable();
if (unavailable) throw new Error(unavailable);
const sandbox = await OracleSandbox.start(2);
const runs = await sandbox.run(OUTSIDE_ATTACK_ROWS.map((row) => row[0]));
await sandbox.close();
const rows = OUTSIDE_ATTACK_ROWS.map(([command, intended, family], i) => {
  const run = runs[i];
  const seen = observe(run?.trace ?? "");
  const observed = seen.floor !== "read_only";
  // An observation only raises the intended label: the sandbox shows a floor, not a ceiling.
  const label = observed && riskRank(seen.floor) > riskRank(intended) ? seen.floor : intended;
  const basis = observed
    ? `observed: ${seen.effects.slice(0, 3).join("; ")}`
    : `intended (the oracle saw nothing${run?.timedOut ? ": timed out" : ""})`;
  return `  [${JSON.stringify(command)}, "${label}", "${family}", ${JSON.stringify(basis)}],`;
});
const header = `import type { ObservedRow } from "./oracle-observed.ts";

/**
 * The outside attack on issue 16 (attack-16, written without reading this folder or the tests):
 * commands that came back read_only but write, run programs, change state, reach devices or send
 * local data away, with variants of each class. Labelled by what the execution oracle observed
 * when each row ran in its sandbox, or, where the sandbox cannot show the effect, by the label the
 * row intends (\`basis\` says which). Written by test-support/oracle/label-outside-attack.ts from
 * test-support/oracle/outside-attack-rows.ts; asserted as a floor. Still the team's own corpus.
 */
export const OUTSIDE_ATTACK_CORPUS: readonly ObservedRow[] = [
`;
writeFileSync(OUT, `${header}${rows.join("\n")}\n];\n`);
console.log(`wrote ${rows.length} rows`);
