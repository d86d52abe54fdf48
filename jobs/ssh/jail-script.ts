import { readFileSync } from "node:fs";

/**
 * The read-only jail: a bash script built only from util-linux (`unshare`, `mount`, `setpriv`) that
 * runs `$1` in a private user, mount and PID namespace where every mount is read-only, /tmp,
 * /var/tmp and /dev/shm are private tmpfs, and the command has no_new_privs and no capabilities.
 * The script and why each step is there: jail.bash.
 */
export const JAIL_SCRIPT: string = readFileSync(new URL("./jail.bash", import.meta.url), "utf8");

/** `$0` of the jail script: the command follows as `$1`. */
export const JAIL_ARGV0 = "oikos-jail";

/** The first stderr line of every jailed run whose jail was set up; nothing of the command precedes it. */
export const JAIL_READY_LINE = "oikos-jail:ready\n";

const UNAVAILABLE_PREFIX = "oikos-jail:unavailable:";

/** How a run that asked for the jail went: the jail held the command, or it never started. */
export type JailRun = { state: "jailed" } | { state: "failed"; reason: string };

/**
 * Reads a jailed run's stderr. The script prints the ready line before it hands over to the command,
 * so a command cannot forge a failed jail, and a missing ready line means the command never ran.
 */
export function readJailedStderr(stderr: string): { run: JailRun; stderr: string } {
  if (stderr.startsWith(JAIL_READY_LINE)) {
    return { run: { state: "jailed" }, stderr: stderr.slice(JAIL_READY_LINE.length) };
  }
  return { run: { state: "failed", reason: jailFailureReason(stderr) }, stderr };
}

function jailFailureReason(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trim());
  const declared = lines.find((line) => line.startsWith(UNAVAILABLE_PREFIX));
  if (declared !== undefined) return declared.slice(UNAVAILABLE_PREFIX.length).trim() || "setup failed";
  const first = lines.find((line) => line !== "");
  return first === undefined ? "the jail did not start (no output)" : first.slice(0, 300);
}

/**
 * Live stderr of a jailed run without its ready line: holds back the first bytes until it can tell
 * whether they are the ready line (which may arrive split across chunks).
 */
export class JailReadyFilter {
  #pending = "";
  #decided = false;

  /** The part of `chunk` to pass on (maybe empty). */
  push(chunk: string): string {
    if (this.#decided) return chunk;
    this.#pending += chunk;
    if (this.#pending.length < JAIL_READY_LINE.length && JAIL_READY_LINE.startsWith(this.#pending)) return "";
    this.#decided = true;
    const text = this.#pending;
    this.#pending = "";
    return text.startsWith(JAIL_READY_LINE) ? text.slice(JAIL_READY_LINE.length) : text;
  }
}
