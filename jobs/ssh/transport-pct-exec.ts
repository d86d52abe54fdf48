import { commandWords, timeoutWords } from "./command-words.ts";
import {
  type ExecOptions,
  type ExecResult,
  KILL_AFTER_SECONDS,
  resolveExecOptions,
  timeoutSeconds,
} from "./exec-result.ts";
import type { HostRunner } from "./host-runner.ts";
import { remoteLine } from "./shell-quote.ts";

/**
 * The host-side line that runs `command` inside LXC container `vmid`: timeout(1) inside the container
 * kills the command itself (the jail, when asked for, is set up inside the container); a later
 * timeout(1) around `pct exec` on the host is the backstop should `pct` hang. No shell on the host
 * re-parses the command: it is one word of `pct exec`'s argument list.
 */
export function pctExecCommand(vmid: number, command: string, options: ExecOptions = {}): string {
  const { timeoutMs, jail, jailGrants, jailLimits, shell, sudo } = resolveExecOptions(options);
  const seconds = timeoutSeconds(timeoutMs);
  const inContainer = commandWords(command, {
    jail,
    jailGrants,
    jailLimits,
    shell,
    sudo,
    timeoutSeconds: seconds,
    killAfterSeconds: KILL_AFTER_SECONDS,
  });
  return remoteLine(
    timeoutWords(
      ["pct", "exec", String(vmid), "--", ...inContainer],
      seconds + KILL_AFTER_SECONDS + 5,
      KILL_AFTER_SECONDS,
    ),
  );
}

/** Run `command` in LXC container `vmid` with `pct exec` on its owning Proxmox host. */
export function execPct(
  host: HostRunner,
  vmid: number,
  command: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  return host.run(pctExecCommand(vmid, command, options), options);
}
