import { TransportRouteError } from "./errors.ts";
import {
  asTimedOutWhenRemoteTimerFired,
  type ExecOptions,
  type ExecResult,
  resolveExecOptions,
} from "./exec-result.ts";
import type { HostRunner } from "./host-runner.ts";
import type { SshPool } from "./ssh-pool.ts";
import type { Target } from "./target.ts";
import { execLocal } from "./transport-local.ts";
import { execPct } from "./transport-pct-exec.ts";
import { execQmGuest } from "./transport-qm-guest-exec.ts";
import { execSsh } from "./transport-ssh.ts";

/**
 * The one entry point for running a command on a target, whatever its transport: `ssh` over the
 * pool, `pct-exec` / `qm-guest-exec` through the owning host (`via`), `local` on this machine.
 * Every route applies the same timeout (kills the process) and output cap semantics.
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
    const { timeoutMs } = resolveExecOptions(options);
    return asTimedOutWhenRemoteTimerFired(await this.#route(target, command, options), timeoutMs);
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
    if (via.transport === "local")
      return { name: via.slug, run: (command, options) => execLocal(command, options) };
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
