import { commandWords } from "./command-words.ts";
import {
  type ExecOptions,
  type ExecResult,
  KILL_AFTER_SECONDS,
  resolveExecOptions,
  timeoutSeconds,
} from "./exec-result.ts";
import { remoteLine } from "./shell-quote.ts";
import type { SshPool } from "./ssh-pool.ts";
import type { SshEndpoint } from "./target.ts";

/** The line an SSH host runs for `command`: the wrapper's words under timeout(1), stdin /dev/null. */
export function sshCommandLine(command: string, options: ExecOptions = {}): string {
  const { timeoutMs, jail, jailGrants, jailLimits, shell, sudo } = resolveExecOptions(options);
  return remoteLine(
    commandWords(command, {
      jail,
      jailGrants,
      jailLimits,
      shell,
      sudo,
      timeoutSeconds: timeoutSeconds(timeoutMs),
      killAfterSeconds: KILL_AFTER_SECONDS,
    }),
  );
}

/** Run `command` on an SSH host through the pool, under timeout(1) so the host kills it on time. */
export function execSsh(
  pool: SshPool,
  endpoint: SshEndpoint,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  return pool.run(endpoint, sshCommandLine(command, options), options);
}
