import type { Arg } from "./command-view.ts";
import { finding } from "./command-view.ts";
import type { Finding } from "./risk.ts";

/** What a command name with a path (`/tmp/ls`, `/etc/init.d/ssh`) really runs. */

const SYSTEM_BIN_DIRS = new Set([
  "/bin",
  "/sbin",
  "/usr/bin",
  "/usr/sbin",
  "/usr/local/bin",
  "/usr/local/sbin",
]);

export function basename(name: string): string {
  const slash = name.lastIndexOf("/");
  return slash >= 0 && slash < name.length - 1 ? name.slice(slash + 1) : name;
}

/** `/tmp/ls` or `./cat` is whatever program sits there, not the system tool of that name. */
export function isOutsideSystemBin(commandName: string): boolean {
  const slash = commandName.lastIndexOf("/");
  if (slash < 0) return false;
  return !SYSTEM_BIN_DIRS.has(commandName.slice(0, slash));
}

export function outsideSystemBinFinding(quoted: string, commandName: string): Finding {
  return finding(
    "config_mutation",
    `${quoted} runs a program at \`${commandName}\`, which is not a known system tool (config_mutation)`,
  );
}

/** `/etc/init.d/<svc> stop` is `service <svc> stop`, not the program named <svc>; null for anything else. */
export function initScriptAsService(argv: readonly Arg[]): Arg[] | null {
  const head = argv[0];
  const match = head ? /^\/etc\/init\.d\/([^/]+)$/.exec(head.value) : null;
  if (!head || !match) return null;
  const service = match[1] as string;
  return [
    { ...head, raw: "service", value: "service" },
    { ...head, raw: service, value: service },
    ...argv.slice(1),
  ];
}
