import type { CommandIO } from "../command-module.ts";
import { serve } from "../serve.ts";

export const description = "terminal chat only (no Matrix/Slack): talk to the agent from stdin, pipes work";
export const usage = "Reads one message per line. `!help` lists commands; end of input shuts down.";

export async function run(_argv: string[], io: CommandIO): Promise<number> {
  return serve(io, { role: "chat", terminal: true });
}
