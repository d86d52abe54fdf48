/**
 * `npm run bench [-- --json] [-- --only <substring>]`: runs every `*.bench.ts` under a `bench/` folder
 * (`test-support/bench/<layer>/`, `test-support/oracle/bench/`)
 * (default export: async () => Record<figure, number>), prints each figure, the ratios that
 * TARGETS.md sets, and with --json a last line holding one JSON object of all figures.
 * Every figure is printed with the deployment it was measured on and the machine's load while it
 * was; the JSON's `_context` holds the same per figure, and `under_load` marks a figure taken while
 * the 1-minute load average exceeded the number of cores (its milliseconds are not the machine's).
 */
import { readdirSync, statSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP = new Set(["node_modules", ".git", "data", "vendor"]);

interface Target {
  label: string;
  /** The figures it is computed from (default: the one named by label). */
  inputs?: string[];
  value(f: Record<string, number>): number | undefined;
  ok(v: number): boolean;
  goal: string;
}

/** Where and how a figure was measured. */
interface FigureContext {
  /** `embedded` (PGlite, in-process queue), `postgres+redis`, `postgres`, or `no store`. */
  deployment: string;
  /** The highest 1-minute load average seen at the start and the end of its bench. */
  load1: number;
  cores: number;
  under_load: boolean;
}

/**
 * A bench module that opens a store exports `usesStore = true`: its figures are measured on the
 * deployment DATABASE_URL / REDIS_URL select, unless the figure's name says its own (`_embedded`,
 * `_pglite`, `_postgres`).
 */
function deploymentOf(figure: string, usesStore: boolean): string {
  if (/_(embedded|pglite)(_|$)/.test(figure)) return "embedded";
  if (/_postgres(_|$)/.test(figure)) return "postgres";
  if (!usesStore) return "no store";
  if (process.env.DATABASE_URL) return process.env.REDIS_URL ? "postgres+redis" : "postgres";
  return process.env.REDIS_URL ? "embedded+redis" : "embedded";
}

function describeContext(context: FigureContext): string {
  const load = `load ${context.load1.toFixed(1)} on ${context.cores} cores`;
  return `[${context.deployment}, ${load}${context.under_load ? ": UNDER LOAD" : ""}]`;
}

const ratio = (a: string, b: string) => (f: Record<string, number>) =>
  f[a] !== undefined && f[b] !== undefined && f[b] > 0 ? f[a] / f[b] : undefined;

const TARGETS: Target[] = [
  {
    label: "classifier_cmds_per_s",
    value: (f) => f.classifier_cmds_per_s,
    ok: (v) => v >= 10_000,
    goal: ">= 10000",
  },
  {
    label: "fanout20_cold / ansible",
    inputs: ["fanout20_cold_ms", "fanout20_ansible_ms"],
    value: ratio("fanout20_cold_ms", "fanout20_ansible_ms"),
    ok: (v) => v <= 0.15,
    goal: "<= 0.15",
  },
  {
    label: "fanout20_warm / ansible",
    inputs: ["fanout20_warm_ms", "fanout20_ansible_ms"],
    value: ratio("fanout20_warm_ms", "fanout20_ansible_ms"),
    ok: (v) => v <= 0.05,
    goal: "<= 0.05",
  },
  {
    label: "fanout20_cold / pssh",
    inputs: ["fanout20_cold_ms", "fanout20_pssh_ms"],
    value: ratio("fanout20_cold_ms", "fanout20_pssh_ms"),
    ok: (v) => v <= 0.6,
    goal: "<= 0.6",
  },
  {
    label: "fanout20_warm / pssh",
    inputs: ["fanout20_warm_ms", "fanout20_pssh_ms"],
    value: ratio("fanout20_warm_ms", "fanout20_pssh_ms"),
    ok: (v) => v <= 0.2,
    goal: "<= 0.2",
  },
  {
    label: "fanout100_cold / pssh",
    inputs: ["fanout100_cold_ms", "fanout100_pssh_ms"],
    value: ratio("fanout100_cold_ms", "fanout100_pssh_ms"),
    ok: (v) => v <= 0.5,
    goal: "<= 0.5 (100 loopback sshd hosts, fresh connections)",
  },
  {
    label: "fanout100_warm / pssh",
    inputs: ["fanout100_warm_ms", "fanout100_pssh_ms"],
    value: ratio("fanout100_warm_ms", "fanout100_pssh_ms"),
    ok: (v) => v <= 0.15,
    goal: "<= 0.15 (pooled)",
  },
  {
    label: "fanout100_rss_mb",
    value: (f) => f.fanout100_rss_mb,
    ok: () => true,
    goal: "reported (peak RSS of the process fanning out to 100 hosts)",
  },
  {
    label: "gated_run_overhead_ms_p50",
    value: (f) => f.gated_run_overhead_ms_p50,
    ok: (v) => v < 50,
    goal: "< 50 ms",
  },
  { label: "continuation_ms_p50", value: (f) => f.continuation_ms_p50, ok: (v) => v < 250, goal: "< 250 ms" },
  {
    label: "jail_overhead_ms_p50",
    value: (f) => f.jail_overhead_ms_p50,
    ok: (v) => v < 15,
    goal: "< 15 ms (jailed minus unjailed read-only run, warm connection; the default engine)",
  },
  {
    label: "jail_overhead_ms_p50_unshare",
    value: (f) => f.jail_overhead_ms_p50_unshare,
    ok: (v) => v <= 25,
    goal: "<= 25 ms (per engine: unshare, the one that ships; over ssh as the lab user, warm connection)",
  },
  {
    label: "diagnostics_autorun_ratio",
    value: (f) => f.diagnostics_autorun_ratio,
    ok: (v) => v >= 0.97,
    goal: ">= 0.97 (the daily-diagnostics corpus: runs with nobody asked and gives the same answer jailed)",
  },
  {
    label: "diagnostics_proof_autorun_ratio",
    value: (f) => f.diagnostics_proof_autorun_ratio,
    ok: (v) => v >= 0.97,
    goal: ">= 0.97 (the proof alone: read_only with exactly the expected grants)",
  },
  {
    label: "proxmox_discovery_ms",
    value: (f) => f.proxmox_discovery_ms,
    ok: (v) => v <= 10_000,
    goal: "<= 10000 ms (oikos import proxmox of 50 guests on the lab: two batched reads, not one SSH session per guest)",
  },
  {
    label: "oracle_findings",
    value: (f) => f.oracle_findings,
    ok: (v) => v === 0,
    goal: "0 read_only commands that change anything",
  },
  {
    label: "resume_after_kill_ms_p50",
    value: (f) => f.resume_after_kill_ms_p50,
    ok: (v) => v < 10_000,
    goal: "< 10000 ms",
  },
  {
    label: "sessions50_wall_ms",
    value: (f) => f.sessions50_wall_ms,
    ok: (v) => v <= 4_000,
    goal: "<= 4000 ms (50 sessions, one 2 s read-only command each: first execution created → last finished)",
  },
  { label: "shutdown_ms_p50", value: (f) => f.shutdown_ms_p50, ok: (v) => v < 5_000, goal: "< 5000 ms" },
  { label: "redact_mb_per_s", value: (f) => f.redact_mb_per_s, ok: (v) => v >= 20, goal: ">= 20" },
  {
    label: "rss_idle_mb_embedded",
    value: (f) => f.rss_idle_mb_embedded,
    ok: (v) => v <= 250,
    goal: "<= 250",
  },
  {
    label: "rss_peak_mb_embedded",
    value: (f) => f.rss_peak_mb_embedded,
    ok: (v) => v <= 450,
    goal: "<= 450",
  },
  {
    label: "knowledge_search_ms_p50",
    value: (f) => f.knowledge_search_ms_p50,
    ok: (v) => v <= 20,
    goal: "<= 20 ms (10k entities, 50k documents, Postgres)",
  },
  {
    label: "knowledge_search_ms_p50_pglite",
    value: (f) => f.knowledge_search_ms_p50_pglite,
    ok: (v) => v <= 20,
    goal: "<= 20 ms (10k entities, 50k documents, PGlite)",
  },
  {
    label: "rss_idle_mb_postgres",
    value: (f) => f.rss_idle_mb_postgres,
    ok: (v) => v <= 150,
    goal: "<= 150",
  },
];

function findBenches(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findBenches(path, out);
    else if (name.endsWith(".bench.ts") && /\/bench(\/|$)/.test(dir)) out.push(path);
  }
  return out.sort();
}

const args = process.argv.slice(2);
const json = args.includes("--json");
const onlyIndex = args.indexOf("--only");
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const log = (line: string) => process.stderr.write(`${line}\n`);

const figures: Record<string, number> = {};
const contexts: Record<string, FigureContext> = {};
const cores = availableParallelism();
const failures: string[] = [];
for (const file of findBenches(ROOT)) {
  const name = relative(ROOT, file);
  if (only && !name.includes(only)) continue;
  log(`▶ ${name}`);
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    const module = (await import(file)) as {
      default: () => Promise<Record<string, number>>;
      usesStore?: boolean;
    };
    const result = await module.default();
    const load1 = Math.round(Math.max(loadAtStart, loadavg()[0] ?? 0) * 100) / 100;
    for (const [figure, value] of Object.entries(result)) {
      figures[figure] = Math.round(value * 100) / 100;
      const deployment = deploymentOf(figure, module.usesStore === true);
      contexts[figure] = { deployment, load1, cores, under_load: load1 > cores };
      log(
        `  ${figure.padEnd(32)} ${String(figures[figure]).padEnd(10)} ${describeContext(contexts[figure])}`,
      );
    }
  } catch (error) {
    failures.push(name);
    log(`  ✖ failed: ${(error as Error).stack ?? String(error)}`);
  }
  log(`  (${Math.round(performance.now() - started)} ms)`);
}

log("\nTargets (TARGETS.md):");
const unmeasured: string[] = [];
for (const target of TARGETS) {
  const value = target.value(figures);
  if (value === undefined) {
    // Never a ratio of nothing: the figure is left out of the JSON and the reason stands here.
    const missing = (target.inputs ?? [target.label]).filter((name) => figures[name] === undefined);
    log(`  ${target.label.padEnd(30)} not measured: ${missing.join(", ")} missing`);
    unmeasured.push(target.label);
    continue;
  }
  const measured = (target.inputs ?? [target.label]).flatMap((name) => contexts[name] ?? []);
  const context =
    measured.length === 0
      ? ""
      : ` ${describeContext({
          deployment: [...new Set(measured.map((c) => c.deployment))].join(" / "),
          load1: Math.max(...measured.map((c) => c.load1)),
          cores,
          under_load: measured.some((c) => c.under_load),
        })}`;
  log(
    `  ${target.label.padEnd(30)} ${value.toFixed(3).padStart(10)}  ${target.ok(value) ? "✓" : "✗"} (goal ${target.goal})${context}`,
  );
}
if (json) process.stdout.write(`${JSON.stringify({ ...figures, _context: contexts })}\n`);
// A full run that could not measure a target is not a clean run (baselines: apt-get install ansible pssh).
if (!only && unmeasured.length > 0)
  log(`\n${unmeasured.length} target(s) not measured; see above (TESTING.md: the baselines a bench needs).`);
process.exitCode = failures.length || (!only && unmeasured.length > 0) ? 1 : 0;
