import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import type { Target } from "../ssh/target.ts";

/** Runs oikos's own Proxmox commands (pvesh, pct/qm snapshot, rollback) on a node: the TransportRouter. */
export interface NodeRunner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}

/** The last non-empty line of a tool's stderr: what a "failed" reason quotes. */
export function lastLine(text: string): string | undefined {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}
