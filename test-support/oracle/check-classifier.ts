import type { Classifier } from "../../policy/classify.ts";
import type { FuzzCase } from "./fuzz.ts";
import { type Judgement, judgeTrace, type Violation } from "./judge.ts";
import type { OracleSandbox } from "./sandbox.ts";

export interface OracleFinding {
  command: string;
  family: string;
  violations: Violation[];
}

export interface OracleReport {
  generated: number;
  readOnly: number;
  executed: number;
  timedOut: number;
  /** Read-only commands whose trace never reached the sandbox's bash (the harness failed). */
  notStarted: string[];
  findings: OracleFinding[];
  byFamily: Record<string, { generated: number; readOnly: number }>;
}

/**
 * Classifies every case and runs each distinct one classified read_only in the sandbox: any
 * attempt to write, run an unnamed program or signal is a finding against the classifier.
 */
export async function checkClassifier(
  classifier: Classifier,
  sandbox: OracleSandbox,
  cases: readonly FuzzCase[],
): Promise<OracleReport> {
  const byFamily: OracleReport["byFamily"] = {};
  const readOnly = new Map<string, { family: string; programs: Set<string> }>();
  for (const item of cases) {
    const stats = byFamily[item.family] ?? { generated: 0, readOnly: 0 };
    byFamily[item.family] = stats;
    stats.generated++;
    const result = classifier.classify(item.command, "host");
    if (result.risk !== "read_only") continue;
    stats.readOnly++;
    if (!readOnly.has(item.command)) {
      readOnly.set(item.command, { family: item.family, programs: new Set(result.programs ?? []) });
    }
  }
  const commands = [...readOnly.keys()];
  const runs = await sandbox.run(commands);
  const findings: OracleFinding[] = [];
  const notStarted: string[] = [];
  let timedOut = 0;
  for (const run of runs) {
    const meta = readOnly.get(run.command);
    if (!meta) continue;
    const judgement: Judgement = judgeTrace(run.trace, meta.programs);
    if (run.timedOut) timedOut++;
    if (!judgement.started) notStarted.push(run.command);
    if (judgement.violations.length > 0) {
      findings.push({ command: run.command, family: meta.family, violations: judgement.violations });
    }
  }
  return {
    generated: cases.length,
    readOnly: [...readOnly.values()].length,
    executed: runs.length,
    timedOut,
    notStarted,
    findings,
    byFamily,
  };
}

export function describeFindings(findings: readonly OracleFinding[]): string {
  return findings
    .slice(0, 20)
    .map((f) => `${JSON.stringify(f.command)} [${f.family}]: ${f.violations.map((v) => v.why).join("; ")}`)
    .join("\n");
}
