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
import { execQmGuest } from "./transport-qm-guest-exec.ts";
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

  #route(target: Target, command: string, options: ExecOptions): Promise<ExecResult> {
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
