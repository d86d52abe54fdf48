import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import type { Target } from "../ssh/target.ts";
import { ProxmoxReadError } from "./errors.ts";

/** Runs oikos's own Proxmox commands (pvesh, pct/qm snapshot, rollback) on a node: the TransportRouter. */
export interface NodeRunner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}

/**
 * One of oikos's own reads on a node or host (a snapshot list): its stdout, or ProxmoxReadError
 * naming the command, where (`where`, default the target's slug) and the exit code.
 */
export async function readOnNode(
  runner: NodeRunner,
  target: Target,
  command: string,
  where = target.slug,
): Promise<string> {
  const result = await runner.exec(target, command, { timeoutMs: 60_000 });
  if (result.exitCode !== 0)
    throw new ProxmoxReadError({ command, where, why: `exit ${result.exitCode}`, stderr: result.stderr });
  return result.stdout;
}

/** The last non-empty line of a tool's stderr: what a "failed" reason quotes. */
export function lastLine(text: string): string | undefined {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}
