import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { serve } from "../serve.ts";

export const description = "start oikos: database, queue, workers, chat adapters (terminal chat by default)";
export const usage =
  "Runs everything in one process. With no configuration: embedded PGlite in ./data,\nin-process queue, terminal chat. Ctrl-D ends the terminal chat and shuts down.";

export async function run(_argv: string[], io: CommandIO): Promise<number> {
  const terminal = loadConfig().chat.shell.enabled;
  return serve(io, { role: "all", terminal });
}
