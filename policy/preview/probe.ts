/** A preview's read-only commands ("probes") and their answers: the vocabulary of every rule. */

/** Which exit statuses of a probe are answers (`test -e` says no with 1; `systemctl is-active` with 3). */
export type ProbeAccepts = "zero" | "zero_or_one" | "any";

export interface Probe {
  command: string;
  accepts: ProbeAccepts;
  /**
   * Who runs it, when not who the part's command runs as: the stages that print what `sudo tee` writes
   * run as the login, like the command's own.
   */
  as?: "login" | "sudo";
}

/**
 * A path a part's command acts on, resolved by the executor before the part's own probes run
 * (policy/preview/name-facts.ts), as the identity the part runs as. `expand`: the word is given as
 * written and expanded by the probe's shell as the command's shell would (rm's globs).
 */
export interface PathQuery {
  word: string;
  expand: boolean;
}

/** A probe's run, complete: not cut to the output cap, not binary (else the executor fails the part). */
export interface ProbeResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A word as a single-quoted shell word: probes never re-expand what the command wrote literally. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
