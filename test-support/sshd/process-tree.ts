import { readdirSync, readFileSync } from "node:fs";

/** Every live descendant of `root` (children first in the list is not guaranteed). Linux /proc only. */
export function descendantPids(root: number): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // the command name may hold spaces and parentheses: the fields after the last ")" are fixed
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const parent = Number(fields[1]);
    const list = childrenOf.get(parent) ?? [];
    list.push(Number(name));
    childrenOf.set(parent, list);
  }
  const found: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    for (const child of childrenOf.get(pid) ?? []) {
      found.push(child);
      pending.push(child);
    }
  }
  return found;
}

/** SIGKILL a process and everything below it; ignores processes that are already gone. */
export function killTree(root: number): void {
  killAll([root, ...descendantPids(root)]);
}

/** SIGKILL everything below `root`, leaving `root` itself running. */
export function killDescendants(root: number): void {
  killAll(descendantPids(root));
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already exited
    }
  }
}
