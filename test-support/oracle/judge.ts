import { effectOf, type SyscallEffect } from "./constants.ts";
import { parseSignalCall } from "./signal-call.ts";

/**
 * Reads an oracle trace (strace -f, see runner.ts) and lists what a command claimed read-only
 * actually attempted: running a program the classifier did not name, opening a file for writing,
 * unlinking, renaming, truncating, changing modes, owners or times, mounting, signalling a
 * process outside its own tree, rebooting and the like. Attempts count, not successes: in the
 * sandbox nearly all of them fail (EROFS, EPERM), which is the point.
 */
export interface Violation {
  pid: number;
  syscall: string;
  line: string;
  why: string;
}

/** Effects that change state whatever the arguments (test-support/oracle/constants.ts). */
const ALWAYS: ReadonlySet<SyscallEffect> = new Set(["removes", "changes", "system", "powers"]);
const WRITE_FLAGS = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE/;
/** Opens for writing that change nothing: the bit bucket, and bash probing for a terminal. */
const HARMLESS_WRITE_TARGETS = new Set(["/dev/null", "/dev/tty"]);
/** bash writes a here-document it cannot pipe to a temporary file of its own. */
const BASH_HEREDOC_TEMP = /^\/tmp\/sh-thd\.[A-Za-z0-9]+$/;

const LINE = /^(\d+)\s+(?:<\.\.\. ([a-z0-9_]+) resumed>(.*)|([a-z0-9_]+)\((.*))$/;
/** The command starts when the sandbox's bash is executed; everything before is the harness. */
const START = /^\d+\s+execve\("\/usr\/bin\/bash", \["\/usr\/bin\/bash", "--noprofile", "--norc", "-c", /;

export interface Judgement {
  started: boolean;
  violations: Violation[];
  /** Programs the command executed (path basenames), for the report. */
  executed: string[];
}

/** Terminals and input devices: reading one takes keystrokes meant for someone else. */
const TERMINAL = /^\/dev\/(pts\/|tty[^"]|console|input\/|hidraw|vcs|uinput|ptmx)/;
/** Connections that leave the machine's own processes: the network, raw packets. */
const NETWORK_FAMILY = /sa_family=AF_(INET6?|PACKET)\b/;

/**
 * `network`: the classification granted the network (policy/jail-grant.ts), so connecting is what
 * the command was proven to do.
 */
export function judgeTrace(
  trace: string,
  namedPrograms: ReadonlySet<string>,
  options: { network?: boolean } = {},
): Judgement {
  const lines = trace.split("\n");
  const start = lines.findIndex((line) => START.test(line));
  if (start < 0) return { started: false, violations: [], executed: [] };
  const body = lines.slice(start + 1);
  const ownPids = new Set<number>();
  for (const line of lines.slice(start)) {
    const match = LINE.exec(line);
    if (!match) continue;
    ownPids.add(Number(match[1]));
    const created = /^\s*(?:clone|clone3|fork|vfork)\(.*\)\s+=\s+(\d+)/.exec(
      `${match[4] ?? ""}(${match[5] ?? ""}`,
    );
    const resumed =
      match[2] && /^(clone|clone3|fork|vfork)$/.test(match[2]) ? /=\s+(\d+)/.exec(match[3] ?? "") : null;
    const child = created?.[1] ?? resumed?.[1];
    if (child) ownPids.add(Number(child));
  }
  const violations: Violation[] = [];
  const executed: string[] = [];
  const mainPid = Number(/^(\d+)/.exec(lines[start] as string)?.[1]);
  let mainEnded = false;
  for (const line of body) {
    const match = LINE.exec(line);
    if (!match || match[2]) continue; // a resumed call was judged at its start
    const pid = Number(match[1]);
    const syscall = match[4] as string;
    if (mainEnded && pid !== mainPid) {
      violations.push({
        pid,
        syscall,
        line,
        why: "a process of the command outlives it (runs after bash ended)",
      });
      break;
    }
    if (syscall === "exit_group") {
      if (pid === mainPid) mainEnded = true;
      continue;
    }
    if (
      (syscall === "connect" || syscall === "sendto") &&
      NETWORK_FAMILY.test(match[5] ?? "") &&
      !options.network
    ) {
      violations.push({ pid, syscall, line, why: "opens a network connection or sends a packet" });
      continue;
    }
    // The arguments, without strace's `) = result` tail.
    const args = (match[5] as string).replace(/\)\s+=\s+.*$/, "").replace(/\s*<unfinished \.\.\.>$/, "");
    const why = judgeCall(syscall, args, namedPrograms, ownPids);
    if (syscall === "execve") {
      const program = firstString(args);
      if (program) executed.push(basename(program));
    }
    if (why) violations.push({ pid, syscall, line, why });
  }
  return { started: true, violations, executed };
}

function judgeCall(
  syscall: string,
  args: string,
  named: ReadonlySet<string>,
  ownPids: ReadonlySet<number>,
): string | null {
  const effect = effectOf(syscall);
  if (effect && ALWAYS.has(effect)) return `${syscall} changes state`;
  if (syscall === "execve") {
    const program = firstString(args);
    if (program === null) return "execve of a program whose path strace could not show";
    return named.has(basename(program))
      ? null
      : `runs \`${basename(program)}\`, which the classifier did not name`;
  }
  if (syscall === "open" || syscall === "openat" || syscall === "openat2" || syscall === "creat") {
    const path = firstString(args);
    const flags = path === null ? args : args.slice(args.indexOf('"', args.indexOf('"') + 1) + 1);
    if (syscall !== "creat" && !WRITE_FLAGS.test(flags))
      return path !== null && TERMINAL.test(path) ? `reads the terminal or input device \`${path}\`` : null;
    if (path !== null && (HARMLESS_WRITE_TARGETS.has(path) || BASH_HEREDOC_TEMP.test(path))) return null;
    return `opens \`${path ?? "?"}\` for writing`;
  }
  if (effect === "signals") return judgeSignal(syscall, args, ownPids);
  if (effect === "traces" && /PTRACE_(ATTACH|SEIZE|POKE)/.test(args)) return "attaches to another process";
  return null;
}

function judgeSignal(syscall: string, args: string, ownPids: ReadonlySet<number>): string | null {
  if (syscall === "pidfd_send_signal") return "signals a process through a pidfd";
  const { target, targetText, signal } = parseSignalCall(syscall, args);
  if (signal === "0" || signal === undefined || target === undefined) return null;
  if (Number.isNaN(target)) return `signals \`${targetText}\``;
  if (target === 0) return null;
  if (target === -1) return "signals every process it may";
  if (ownPids.has(Math.abs(target))) return null;
  return `sends ${signal} to process ${target}, outside its own tree`;
}

/** The first double-quoted string of strace's argument text, unescaped enough for paths. */
function firstString(args: string): string | null {
  const match = /"((?:[^"\\]|\\.)*)"/.exec(args);
  return match ? (match[1] as string).replace(/\\(.)/g, "$1") : null;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
