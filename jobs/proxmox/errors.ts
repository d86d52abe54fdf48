import { OikosError } from "../../base/errors.ts";

/**
 * A read oikos makes on a Proxmox node or host (the cluster for discovery, a guest's or dataset's
 * snapshots for retention and rollback) did not answer. Discovery and the retention sweep try
 * again on their next run; a person reads what failed and what to check.
 */
export class ProxmoxReadError extends OikosError {
  constructor(input: { command: string; where: string; why: string; stderr?: string }) {
    const said = input.stderr?.trim().slice(0, 300);
    super(
      "proxmox_read_failed",
      `Reading \`${input.command}\` on ${input.where} failed (${input.why})${said ? `: ${said}` : ""}. ` +
        `Check that the node answers it as oikos's SSH user (\`oikos check ${input.where}\`); ` +
        "discovery and the snapshot sweep try again on their next run.",
    );
    this.name = "ProxmoxReadError";
  }
}

/** A rollback was asked while another approval became pending in that thread: nothing was asked. */
export class RollbackRaceError extends OikosError {
  constructor() {
    super(
      "approval_pending",
      "Another approval became pending in that thread meanwhile, so the rollback was not asked. " +
        "Answer that one first, then ask for the rollback again (⏪ on the summary, or !rollback).",
    );
    this.name = "RollbackRaceError";
  }
}
