import { registerIdleSweep } from "../../agent/idle-sweep.ts";
import { runtimeSshTransport, sweepContext } from "../../jobs/execution/capability.ts";
import type { NodeRunner } from "../../jobs/proxmox/node-runner.ts";
import { registerSnapshotRetention } from "../../jobs/proxmox/start.ts";
import { lazySshRunner } from "../../jobs/ssh/create-ssh-transport.ts";
import { registerAllSweeps } from "../../jobs/sweeps/default-sweeps.ts";
import { formatSweepReports, runSweeps, sweepKinds } from "../../jobs/sweeps/registry.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { openRuntime } from "../runtime.ts";

export const description =
  "run sweeps now (stale executions, expired approvals, idle sessions, snapshot retention) and print what changed";
export const usage =
  "oikos sweep [stale|approvals|reminders|idle|snapshots|all] [--json]\nDefault all. Prints one line per item changed or failed; exit code 1 when any failed.\nsnapshots: the Proxmox / ZFS snapshots oikos took and recorded, older than proxmox.snapshotRetentionDays, are removed over SSH (never any other snapshot).";

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "sweep", usage, io }, argv, {
    options: { json: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  if (!args) return 2;
  const { json } = args.values;
  const config = loadConfig();
  // The retention sweep reaches the nodes over SSH: its transport is opened on its first command.
  let runtime: Awaited<ReturnType<typeof openRuntime>> | undefined;
  const ssh = lazySshRunner(() => {
    if (!runtime) throw new Error("the runtime is not open");
    return runtimeSshTransport(runtime);
  });
  const runner: NodeRunner = ssh.runner;
  registerAllSweeps();
  registerIdleSweep();
  registerSnapshotRetention(
    { runner, targets: { sshUser: config.ssh.user } },
    config.proxmox.snapshotRetentionDays,
    0,
  );
  const kind = args.positionals[0] ?? "all";
  if (kind !== "all" && !sweepKinds().includes(kind)) {
    io.stderr.write(`Unknown sweep "${kind}". Known: ${[...sweepKinds(), "all"].join(", ")}\n`);
    return 2;
  }
  runtime = await openRuntime(config);
  try {
    const reports = await runSweeps(kind, sweepContext(runtime));
    io.stdout.write(json ? `${JSON.stringify(reports)}\n` : `${formatSweepReports(reports)}\n`);
    const failed = reports.some((r) => r.error !== undefined || r.items.some((i) => i.outcome === "failed"));
    return failed ? 1 : 0;
  } finally {
    await ssh.close();
    await runtime.close();
  }
}
