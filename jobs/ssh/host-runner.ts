import type { ExecOptions, ExecResult } from "./exec-result.ts";

/**
 * Runs an already wrapped command string verbatim on the host that owns a guest (over the pool, or
 * locally when oikos runs on that host). `name` says which host, for error messages.
 */
export interface HostRunner {
  name: string;
  run(command: string, options: ExecOptions): Promise<ExecResult>;
}
