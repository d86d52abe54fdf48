import { registerIdleSweep } from "../../agent/idle-sweep.ts";
import { sweepContext } from "../../jobs/execution/capability.ts";
import { registerAllSweeps } from "../../jobs/sweeps/default-sweeps.ts";
import { formatSweepReports, runSweeps, sweepKinds } from "../../jobs/sweeps/registry.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { openRuntime } from "../runtime.ts";

export const description =
  "run sweeps now (stale executions, expired approvals, idle sessions) and print what changed";
export const usage =
  "oikos sweep [stale|approvals|reminders|idle|all] [--json]\nDefault all. Prints one line per item changed or failed; exit code 1 when any failed.";

export async function run(argv: string[], io: CommandIO): Promise<number> {
  registerAllSweeps();
  registerIdleSweep();
  const args = commandArgs({ name: "sweep", usage, io }, argv, {
    options: { json: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  if (!args) return 2;
  const { json } = args.values;
  const kind = args.positionals[0] ?? "all";
  if (kind !== "all" && !sweepKinds().includes(kind)) {
    io.stderr.write(`Unknown sweep "${kind}". Known: ${[...sweepKinds(), "all"].join(", ")}\n`);
    return 2;
  }
  const runtime = await openRuntime(loadConfig());
  try {
    const reports = await runSweeps(kind, sweepContext(runtime));
    io.stdout.write(json ? `${JSON.stringify(reports)}\n` : `${formatSweepReports(reports)}\n`);
    const failed = reports.some((r) => r.error !== undefined || r.items.some((i) => i.outcome === "failed"));
    return failed ? 1 : 0;
  } finally {
    await runtime.close();
  }
}
