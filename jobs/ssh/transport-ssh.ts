import {
  type ExecOptions,
  type ExecResult,
  KILL_AFTER_SECONDS,
  resolveExecOptions,
  timeoutSeconds,
} from "./exec-result.ts";
import { withRemoteTimeout } from "./shell-quote.ts";
import type { SshPool } from "./ssh-pool.ts";
import type { SshEndpoint } from "./target.ts";

/** Run `command` on an SSH host through the pool, under timeout(1) so the host kills it on time. */
export function execSsh(
  pool: SshPool,
  endpoint: SshEndpoint,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  const { timeoutMs } = resolveExecOptions(options);
  return pool.run(
    endpoint,
    withRemoteTimeout(command, timeoutSeconds(timeoutMs), KILL_AFTER_SECONDS),
    options,
  );
}
