import { readFileSync } from "node:fs";
import type { JailFailureKind } from "../../policy/jail.ts";
import type { JailResource } from "../../policy/jail-grant.ts";

/**
 * The read-only jail: a bash script built from util-linux (`unshare`, `mount`, `setpriv`) and
 * perl-base that runs `$1` in private user, mount, PID, IPC and network namespaces where every mount
 * is read-only, no device but null/zero/full/random/urandom can be opened, no file or device or FIFO
 * can be opened for writing outside a private scratch space (Landlock), no socket family but the
 * granted ones can be made (seccomp), and the command has no_new_privs, no capabilities and bounds
 * on memory, processes and CPU. The script and why each step is there: jail.bash, jail-filter.pl.
 */
export const JAIL_SCRIPT: string = readFileSync(new URL("./jail.bash", import.meta.url), "utf8");

/** The filter installer jail.bash runs last (passed as its `perl=` setting). */
export const JAIL_FILTER: string = readFileSync(new URL("./jail-filter.pl", import.meta.url), "utf8");

/** `$0` of the jail script: the command follows as `$1`, then the settings. */
export const JAIL_ARGV0 = "oikos-jail";

/** The engines that can jail a command (only the util-linux one ships: it runs and is tested here). */
export const JAIL_ENGINES = ["unshare"] as const;
export type JailEngine = (typeof JAIL_ENGINES)[number];

/** How the jail's first stderr line starts; it ends at the first newline. Nothing of the command precedes it. */
export const JAIL_READY_PREFIX = "oikos-jail:ready";

/** What the jail reports in its ready line: the engine, the network, how processes are bounded. */
export interface JailFacts {
  engine: JailEngine;
  /** `private`: a network namespace of its own; `host`: a network or netlink grant. */
  net: "private" | "host";
  /** `pid_max:N`, `nproc:N`, or `none` (a root login on a kernel older than 6.14). */
  pids: string;
  /** The private scratch space (TMPDIR). */
  scratch: string;
}

/** How a run that asked for the jail went: the jail held the command, or it never started. */
export type JailRun =
  | { state: "jailed"; facts: JailFacts }
  | { state: "failed"; kind: JailFailureKind; reason: string; resource?: JailResource };

/**
 * Reads a jailed run's stderr. The jail prints the ready line just before it hands over to the
 * command, so a command cannot forge a failed jail, and a missing ready line means the command never ran.
 */
export function readJailedStderr(stderr: string): { run: JailRun; stderr: string; readyBytes: number } {
  if (stderr.startsWith(`${JAIL_READY_PREFIX} `) || stderr.startsWith(`${JAIL_READY_PREFIX}\n`)) {
    const end = stderr.indexOf("\n");
    if (end >= 0) {
      const line = stderr.slice(0, end);
      return {
        run: { state: "jailed", facts: readyFacts(line) },
        stderr: stderr.slice(end + 1),
        readyBytes: Buffer.byteLength(line) + 1,
      };
    }
  }
  return { run: failureOf(stderr), stderr, readyBytes: 0 };
}

function readyFacts(line: string): JailFacts {
  const fields = new Map(
    line
      .slice(JAIL_READY_PREFIX.length)
      .trim()
      .split(" ")
      .map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)] as const),
  );
  return {
    engine: "unshare",
    net: fields.get("net") === "host" ? "host" : "private",
    pids: fields.get("pids") ?? "none",
    scratch: fields.get("scratch") ?? "",
  };
}

/**
 * strerror texts (glibc) that mean the machine was short of something for a moment — a fork, memory,
 * a namespace slot — rather than unable to jail: the run is tried again, the target not marked.
 */
const TRANSIENT_ERRORS = [
  "Resource temporarily unavailable",
  "Cannot allocate memory",
  "No space left on device",
  "fork: retry",
  "Interrupted system call",
];

function failureOf(stderr: string): Extract<JailRun, { state: "failed" }> {
  const lines = stderr.split("\n").map((line) => line.trim());
  for (const line of lines) {
    const declared = /^oikos-jail:(unavailable|transient|grant):(.*)$/.exec(line);
    if (declared === null) continue;
    const [, kind, rest = ""] = declared;
    if (kind === "grant") {
      const colon = rest.indexOf(":");
      const resource = rest.slice(0, colon) as JailResource;
      return {
        state: "failed",
        kind: "grant",
        resource,
        reason: rest.slice(colon + 1).trim() || "setup failed",
      };
    }
    return { state: "failed", kind: kind as JailFailureKind, reason: rest.trim() || "setup failed" };
  }
  const first = lines.find((line) => line !== "");
  if (first === undefined)
    return { state: "failed", kind: "unavailable", reason: "the jail did not start (no output)" };
  const transient = TRANSIENT_ERRORS.some((text) => stderr.includes(text));
  return { state: "failed", kind: transient ? "transient" : "unavailable", reason: first.slice(0, 300) };
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
    const prefix = this.#pending.slice(0, JAIL_READY_PREFIX.length);
    if (!JAIL_READY_PREFIX.startsWith(prefix)) return this.#release(this.#pending);
    if (this.#pending.length < JAIL_READY_PREFIX.length) return "";
    const end = this.#pending.indexOf("\n");
    if (end < 0) return "";
    return this.#release(this.#pending.slice(end + 1));
  }

  #release(text: string): string {
    this.#decided = true;
    this.#pending = "";
    return text;
  }
}
