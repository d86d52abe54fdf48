import type { Risk } from "../../policy/risk.ts";
import { effectOf } from "./constants.ts";
import { parseSignalCall } from "./signal-call.ts";

/**
 * What a command did in the oracle's sandbox, as effects a person can read, and the least risk
 * those effects imply. Used to label corpus rows by observation instead of by the classifier's
 * authors: an attempt to replace or remove an existing file, signal init or every process, or
 * reboot is destructive; any other write, mode change or link is at least config_mutation.
 */
export interface Observation {
  effects: string[];
  floor: Risk;
}

const LINE = /^(\d+)\s+([a-z0-9_]+)\((.*)$/;
const START = /^\d+\s+execve\("\/usr\/bin\/bash", \["\/usr\/bin\/bash", "--noprofile", "--norc", "-c", /;
const SCRATCH = /^\/(tmp|var\/tmp|dev\/shm)\//;

export function observe(trace: string): Observation {
  const lines = trace.split("\n");
  const start = lines.findIndex((line) => START.test(line));
  const effects: string[] = [];
  let floor: Risk = "read_only";
  const raise = (risk: Risk) => {
    if (risk === "destructive" || floor === "read_only") floor = risk;
  };
  for (const line of lines.slice(start + 1)) {
    const match = LINE.exec(line);
    if (!match) continue;
    const syscall = match[2] as string;
    const args = (match[3] as string).replace(/\)\s+=\s+.*$/, "");
    const path = /"((?:[^"\\]|\\.)*)"/.exec(args)?.[1] ?? "";
    const effect = effectOf(syscall);
    if (effect === "opens") {
      if (syscall !== "creat" && !/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(args)) continue;
      if (path === "/dev/null" || path === "/dev/tty" || /^\/tmp\/sh-thd/.test(path)) continue;
      const truncates = /O_TRUNC/.test(args) || syscall === "creat";
      effects.push(`${truncates ? "truncates" : "opens for writing"} ${path}`);
      raise(truncates && !SCRATCH.test(path) ? "destructive" : "config_mutation");
    } else if (effect === "removes") {
      effects.push(`${syscall} ${path}`);
      raise(SCRATCH.test(path) ? "config_mutation" : "destructive");
    } else if (effect === "changes" || effect === "system") {
      effects.push(`${syscall} ${path}`.trim());
      raise("config_mutation");
    } else if (effect === "powers") {
      effects.push(syscall);
      raise("destructive");
    } else if (effect === "signals") {
      const { target, signal } = parseSignalCall(syscall, args);
      if (signal === "0" || target === 0) continue;
      if (target === 1 || target === -1) {
        effects.push(`sends ${signal} to ${target === 1 ? "init" : "every process"}`);
        raise("destructive");
      }
    }
  }
  return { effects: [...new Set(effects)], floor };
}
