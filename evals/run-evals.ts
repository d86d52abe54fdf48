import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sshLabUnavailable } from "../test-support/sshd/ssh-lab.ts";
import { loadScenarios, type Scenario } from "./harness/manifest.ts";
import { runScenario, type ScenarioResult } from "./harness/run-scenario.ts";
import { evalOutputDir } from "./harness/state-dump.ts";
import { Homelab } from "./lab/homelab.ts";

export interface EvalRunOptions {
  /** Only scenarios with these names (all when empty). */
  names?: string[];
  /** Only scenarios marked `fast: true`. */
  fastOnly?: boolean;
  modelUrl?: string;
  modelName?: string;
  modelApiKey?: string;
  onResult?: (result: ScenarioResult) => void;
}

/**
 * Runs the selected scenarios one after another against one shared simulated homelab (one sshd
 * per lab host for the whole run; each scenario resets the hosts it uses).
 */
export async function runEvals(options: EvalRunOptions = {}): Promise<ScenarioResult[]> {
  const all = await loadScenarios();
  const unknown = (options.names ?? []).filter((n) => !all.some((s) => s.name === n));
  if (unknown.length > 0)
    throw new Error(
      `unknown scenario(s): ${unknown.join(", ")}. Known: ${all.map((s) => s.name).join(", ")}`,
    );
  const selected = all.filter(
    (s: Scenario) =>
      (!options.names?.length || options.names.includes(s.name)) && (!options.fastOnly || s.fast),
  );
  const missing = await sshLabUnavailable();
  if (missing !== null) throw new Error(`the simulated homelab needs sshd: ${missing}`);
  const homelab = await Homelab.start(selected.flatMap((s) => s.hosts.map((h) => h.name)).concat("spare"));
  const results: ScenarioResult[] = [];
  try {
    for (const scenario of selected) {
      const result = await runScenario(scenario, {
        homelab,
        modelUrl: options.modelUrl,
        modelName: options.modelName,
        modelApiKey: options.modelApiKey,
      });
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await homelab.stop();
  }
  return results;
}

/** The scoreboard next to the failure dumps (evals/harness/state-dump.ts). */
export async function writeScoreboard(scoreboard: string): Promise<string> {
  const dir = evalOutputDir();
  await mkdir(dir, { recursive: true });
  const file = join(dir, "scoreboard.txt");
  await writeFile(file, `${scoreboard}\n`);
  return file;
}

/** The --json line's entry: exactly the keys it has always had. */
export function jsonResult(r: ScenarioResult) {
  const { name, passed, failures, tool_calls, model_calls, wall_ms } = r;
  return { name, passed, failures, tool_calls, model_calls, wall_ms };
}

const COLUMNS = [
  ["result", 6],
  ["tools", 5],
  ["model", 5],
  ["wall_ms", 7],
  ["run_ms", 7],
  ["1st_ms", 6],
  ["peak", 4],
] as const;

/**
 * The human scoreboard: one line per scenario (wall_ms includes setup; run_ms, 1st_ms = slowest first
 * answer and peak = most executions at once come from the run's stored timestamps), its failed
 * assertions and notes under it, totals last.
 */
export function formatScoreboard(results: ScenarioResult[]): string {
  const width = Math.max(8, ...results.map((r) => r.name.length));
  const lines = [
    `${"scenario".padEnd(width)}  ${COLUMNS.map(([title, w]) => title.padStart(w)).join("  ")}`,
    `${"-".repeat(width)}  ${COLUMNS.map(([, w]) => "-".repeat(w)).join("  ")}`,
  ];
  for (const r of results) {
    const cells = [
      (r.passed ? "PASS" : "FAIL").padEnd(6),
      r.tool_calls,
      r.model_calls,
      r.wall_ms,
      r.timing?.run_ms ?? "-",
      r.timing?.first_answer_ms ?? "-",
      r.timing?.peak_executions ?? "-",
    ].map((cell, i) => String(cell).padStart(COLUMNS[i]![1]));
    lines.push(`${r.name.padEnd(width)}  ${cells.join("  ")}`);
    for (const failure of r.failures) lines.push(`${" ".repeat(width)}    ✗ ${failure.split("\n")[0]}`);
    for (const note of r.notes ?? []) lines.push(`${" ".repeat(width)}    ~ ${note}`);
    if (r.dump) lines.push(`${" ".repeat(width)}    → final state: ${r.dump}`);
  }
  const passed = results.filter((r) => r.passed).length;
  const wall = results.reduce((sum, r) => sum + r.wall_ms, 0);
  const run = results.reduce((sum, r) => sum + (r.timing?.run_ms ?? 0), 0);
  lines.push(
    `${passed}/${results.length} scenarios passed in ${(wall / 1000).toFixed(1)} s (${(run / 1000).toFixed(1)} s of it in the runs themselves)`,
  );
  return lines.join("\n");
}
