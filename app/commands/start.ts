import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { serve } from "../serve.ts";

export const description = "start oikos: database, queue, workers, chat adapters (terminal chat by default)";
export const usage =
  "Runs everything in one process. With no configuration: embedded PGlite in ./data,\nin-process queue, terminal chat when stdin is a TTY (Ctrl-D ends it and shuts down).\nWithout a TTY (systemd, nohup, </dev/null) it runs headless until SIGTERM or SIGINT;\nOIKOS_SHELL=true reads chat lines from a pipe instead.";

export async function run(_argv: string[], io: CommandIO): Promise<number> {
  return serve(io, { role: "all", terminal: terminalWanted(loadConfig().chat.shell.enabled, io.stdin) });
}

/** The terminal chat runs when asked for explicitly, else only on a TTY: end of a pipe or /dev/null is no shutdown. */
export function terminalWanted(configured: boolean | undefined, stdin: CommandIO["stdin"]): boolean {
  return configured ?? Boolean((stdin as { isTTY?: boolean }).isTTY);
}
