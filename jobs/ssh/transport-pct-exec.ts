import {
  type ExecOptions,
  type ExecResult,
  KILL_AFTER_SECONDS,
  resolveExecOptions,
  timeoutSeconds,
} from "./exec-result.ts";
import type { HostRunner } from "./host-runner.ts";
import { timeoutWords, withRemoteTimeout } from "./shell-quote.ts";

/**
 * The host-side command that runs `command` inside LXC container `vmid`: timeout(1) inside the
 * container kills the command itself; a later timeout(1) around `pct exec` on the host is the
 * backstop should `pct` hang.
 */
export function pctExecCommand(vmid: number, command: string, options: ExecOptions = {}): string {
  const seconds = timeoutSeconds(resolveExecOptions(options).timeoutMs);
  const inContainer = timeoutWords(command, seconds, KILL_AFTER_SECONDS);
  return withRemoteTimeout(
    `pct exec ${vmid} -- ${inContainer}`,
    seconds + KILL_AFTER_SECONDS + 5,
    KILL_AFTER_SECONDS,
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
