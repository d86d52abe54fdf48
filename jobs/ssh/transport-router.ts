import { TransportRouteError } from "./errors.ts";
import {
  asTimedOutWhenRemoteTimerFired,
  type ExecOptions,
  type ExecResult,
  resolveExecOptions,
} from "./exec-result.ts";
import type { HostRunner } from "./host-runner.ts";
import { JailReadyFilter, readJailedStderr } from "./jail-script.ts";
import type { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { execLocal } from "./transport-local.ts";
import { execPct } from "./transport-pct-exec.ts";
import { execQmGuest, execQmGuestWindows } from "./transport-qm-guest-exec.ts";
import { execSsh } from "./transport-ssh.ts";

/**
 * The one entry point for running a command on a target, whatever its transport: `ssh` over the
 * pool, `pct-exec` / `qm-guest-exec` through the owning host (`via`), `local` on this machine.
 * Every route runs the command through the one wrapper (command-words.ts: bash, or the read-only
 * jail) and applies the same timeout (kills the process) and output cap semantics.
 */
export class TransportRouter {
  readonly #pool: SshPool;

  constructor(options: { pool: SshPool }) {
    this.#pool = options.pool;
  }

  get pool(): SshPool {
    return this.#pool;
  }

  async exec(target: Target, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const { timeoutMs, jail, onOutput } = resolveExecOptions(options);
    if (!jail) return asTimedOutWhenRemoteTimerFired(await this.#route(target, command, options), timeoutMs);
    const filter = new JailReadyFilter();
    const live =
      onOutput === undefined
        ? undefined
        : (stream: "stdout" | "stderr", text: string): void => {
            const shown = stream === "stderr" ? filter.push(text) : text;
            if (shown !== "") onOutput(stream, shown);
          };
    const result = await this.#route(target, command, { ...options, onOutput: live });
    return asTimedOutWhenRemoteTimerFired(withJailRead(result), timeoutMs);
  }

  #route(target: Target, command: string, given: ExecOptions): Promise<ExecResult> {
    const options = withGuestShell(target, given);
    if (target.shell === "cmd" && options.shell === undefined) {
      // a Windows guest: cmd.exe through its guest agent, never a wrapped bash that cannot exist there
      if (target.transport !== "qm-guest-exec")
        throw new TransportRouteError(target.slug, "a Windows guest is reached only through its guest agent");
      return execQmGuestWindows(this.#owningHost(target), this.#vmid(target), command, options);
    }
    switch (target.transport) {
      case "ssh":
        if (target.ssh === undefined)
          throw new TransportRouteError(target.slug, "an ssh target needs host and user");
        return execSsh(this.#pool, target.ssh, command, options);
      case "local":
        return execLocal(command, options);
      case "pct-exec":
        return execPct(this.#owningHost(target), this.#vmid(target), command, options);
      case "qm-guest-exec":
        return execQmGuest(this.#owningHost(target), this.#vmid(target), command, options);
      default:
        throw new TransportRouteError(target.slug, `unknown transport ${String(target.transport)}`);
    }
  }

  #owningHost(target: Target): HostRunner {
    const via = target.via;
    if (via === undefined)
      throw new TransportRouteError(target.slug, `${target.transport} needs its owning host (via)`);
    // the host-side line is oikos's own (pct exec / qm guest exec …): run as it is, never jailed
    if (via.transport === "local")
      return {
        name: via.slug,
        run: (line, options) => execLocal(line, { ...options, jail: false, shell: "bash" }),
      };
    if (via.transport === "ssh" && via.ssh !== undefined) {
      const endpoint = via.ssh;
      return { name: via.slug, run: (command, options) => this.#pool.run(endpoint, command, options) };
    }
    throw new TransportRouteError(target.slug, `its owning host ${via.slug} is not an ssh or local target`);
  }

  #vmid(target: Target): number {
    if (target.vmid === undefined)
      throw new TransportRouteError(target.slug, `${target.transport} needs the guest's vmid`);
    return target.vmid;
  }
}

/**
 * The shell a guest recorded without bash runs the command with (policy/guest-shell.ts): busybox ash
 * or a POSIX sh as `sh -c`. A shell the caller names (the probe's `sh`) wins; the read-only jail needs
 * bash, so a jailed run on such a guest is refused rather than run some other way.
 */
function withGuestShell(target: Target, options: ExecOptions): ExecOptions {
  if (options.shell !== undefined || target.shell === undefined) return options;
  if (options.jail === true)
    throw new TransportRouteError(
      target.slug,
      `the read-only jail runs under bash, and ${target.slug} has ${target.shell === "cmd" ? "Windows cmd.exe" : "no bash"}`,
    );
  return target.shell === "cmd" ? options : { ...options, shell: "sh" };
}

/**
 * A jailed run's result as the command produced it: the ready line taken out of stderr (and of the
 * byte count). When the jail did not start, the result stays the jail's own, marked `failed`;
 * a run stopped by timeout or cancel before the ready line is not a jail failure.
 */
function withJailRead(result: ExecResult): ExecResult {
  const read = readJailedStderr(result.stderr);
  if (read.run.state === "jailed") {
    return {
      ...result,
      stderr: read.stderr,
      outputBytes: Math.max(0, result.outputBytes - read.readyBytes),
      jail: read.run,
    };
  }
  if (result.timedOut || result.cancelled) return result;
  return { ...result, jail: read.run };
}
