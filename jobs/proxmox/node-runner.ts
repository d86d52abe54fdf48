import type { ExecOptions, ExecResult } from "../ssh/exec-result.ts";
import type { Target } from "../ssh/target.ts";

/** Runs oikos's own Proxmox commands (pvesh, pct/qm snapshot, rollback) on a node: the TransportRouter. */
export interface NodeRunner {
  exec(target: Target, command: string, options?: ExecOptions): Promise<ExecResult>;
}
