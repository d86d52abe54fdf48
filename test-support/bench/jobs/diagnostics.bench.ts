import { loadClassifier } from "../../../policy/classify.ts";
import { grantKey, unionGrants } from "../../../policy/jail-grant.ts";
import { DIAGNOSTICS } from "../../diagnostics/corpus.ts";
import { startDiagnosticsLab } from "../../diagnostics/lab.ts";
import { diagnosticsAutorunRatio, runDiagnosticsLab } from "../../diagnostics/lab-outcomes.ts";
import type { DiagnosticRow } from "../../diagnostics/schema.ts";

const log = (line: string) => process.stderr.write(`  ${line}\n`);

/**
 * The daily diagnostics (issue #27): `diagnostics_proof_autorun_ratio`, the share of the corpus the
 * proof lets run with nobody asked with exactly its expected grants; `diagnostics_autorun_ratio`,
 * the share that also gives the same answer jailed on this machine's lab (rows that fail closed or
 * that the jail changes do not count; rows this machine cannot run count on the proof alone) — root
 * only, as the lab's loop disk and network namespace need it; `diagnostics_lab_same_ratio`, of the
 * rows the lab ran jailed, the share with the same output.
 */
export default async function diagnosticsBench(): Promise<Record<string, number>> {
  const classifier = await loadClassifier();
  const autoRuns = (row: DiagnosticRow): boolean => {
    const result = classifier.classify(row.command, "host");
    const key = (grants: DiagnosticRow["grants"]) => unionGrants(grants).map(grantKey).join(",");
    return result.risk === "read_only" && key(result.grants ?? []) === key(row.grants);
  };
  const figures: Record<string, number> = {
    diagnostics_proof_autorun_ratio: DIAGNOSTICS.filter(autoRuns).length / DIAGNOSTICS.length,
  };
  if (process.getuid?.() !== 0) {
    log("diagnostics_autorun_ratio skipped: the lab needs root (loop devices, a network namespace)");
    return figures;
  }
  const lab = await startDiagnosticsLab();
  try {
    const { outcomes } = await runDiagnosticsLab(lab);
    figures.diagnostics_autorun_ratio = diagnosticsAutorunRatio(outcomes, autoRuns);
    const jailed = outcomes.filter((o) => ["same", "reported", "silent_lie"].includes(o.kind));
    figures.diagnostics_lab_same_ratio =
      jailed.filter((o) => o.kind === "same").length / Math.max(1, jailed.length);
    for (const o of outcomes)
      if (o.kind !== "same" && o.kind !== "unjailed_by_spec" && o.kind !== "not_installed")
        log(`${o.kind}: ${o.row.command}`);
    return figures;
  } finally {
    await lab.stop();
  }
}
