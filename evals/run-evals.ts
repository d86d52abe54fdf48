import { sshLabUnavailable } from "../test-support/sshd/ssh-lab.ts";
import { loadScenarios, type Scenario } from "./harness/manifest.ts";
import { runScenario, type ScenarioResult } from "./harness/run-scenario.ts";
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

/** The human scoreboard: one line per scenario, its failed assertions under it, totals last. */
export function formatScoreboard(results: ScenarioResult[]): string {
  const width = Math.max(8, ...results.map((r) => r.name.length));
  const lines = [
    `${"scenario".padEnd(width)}  result  tools  model  wall_ms`,
    `${"-".repeat(width)}  ------  -----  -----  -------`,
  ];
  for (const r of results) {
    lines.push(
      `${r.name.padEnd(width)}  ${(r.passed ? "PASS" : "FAIL").padEnd(6)}  ${String(r.tool_calls).padStart(5)}  ${String(r.model_calls).padStart(5)}  ${String(r.wall_ms).padStart(7)}`,
    );
    for (const failure of r.failures) lines.push(`${" ".repeat(width)}    ✗ ${failure.split("\n")[0]}`);
  }
  const passed = results.filter((r) => r.passed).length;
  const wall = results.reduce((sum, r) => sum + r.wall_ms, 0);
  lines.push(`${passed}/${results.length} scenarios passed in ${(wall / 1000).toFixed(1)} s`);
  return lines.join("\n");
}
