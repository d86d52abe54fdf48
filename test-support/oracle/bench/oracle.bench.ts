import { loadClassifier } from "../../../policy/classify.ts";
import { checkClassifier, describeFindings } from "../check-classifier.ts";
import { generate } from "../fuzz.ts";
import { OracleSandbox, oracleUnavailable } from "../sandbox.ts";

/**
 * The execution oracle in bench mode: more generated commands than `npm test` runs (a different
 * seed each bench run is not wanted: the figure must compare across runs, so the seed is fixed),
 * every distinct read_only one executed in the sandbox. `oracle_cmds_per_s` is executed commands
 * per second of wall time with two sandbox runners; `oracle_findings` must be 0.
 */
export default async function oracleBench(): Promise<Record<string, number>> {
  const unavailable = oracleUnavailable();
  if (unavailable) {
    process.stderr.write(`oracle bench skipped: ${unavailable}\n`);
    return {};
  }
  const classifier = await loadClassifier();
  const sandbox = await OracleSandbox.start(2);
  try {
    const cases = generate(7_2026, Number(process.env.ORACLE_BENCH_COUNT ?? 8000));
    const started = performance.now();
    const report = await checkClassifier(classifier, sandbox, cases);
    const seconds = (performance.now() - started) / 1000;
    // a finding is a read_only command that changed something: name it, or nobody can act on it
    if (report.findings.length > 0) process.stderr.write(`${describeFindings(report.findings)}\n`);
    return {
      oracle_cmds_per_s: Math.round((report.executed / seconds) * 10) / 10,
      oracle_generated: report.generated,
      oracle_executed: report.executed,
      oracle_findings: report.findings.length,
    };
  } finally {
    await sandbox.close();
  }
}
