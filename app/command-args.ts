import { type ParseArgsConfig, parseArgs } from "node:util";
import type { CommandIO } from "./command-module.ts";

type ArgsConfig = Omit<ParseArgsConfig, "args" | "strict" | "tokens">;

/**
 * A command's arguments through `util.parseArgs`, strict (an unknown option, a missing value or an
 * unexpected word is refused). On a refusal it writes `oikos <command>: <why>` and the usage to
 * stderr and returns null: the command exits 2.
 */
export function commandArgs<const T extends ArgsConfig>(
  command: { name: string; usage: string; io: Pick<CommandIO, "stderr"> },
  argv: string[],
  config: T,
): ReturnType<typeof parseArgs<T & { strict: true }>> | null {
  try {
    return parseArgs({ ...config, args: argv, strict: true } as T & { strict: true });
  } catch (error) {
    command.io.stderr.write(`oikos ${command.name}: ${(error as Error).message}\n${command.usage}\n`);
    return null;
  }
}
