import { type CommandRegistry, defineCommand } from "./bot-commands.ts";
import { text } from "./command-args.ts";

/** `!help [command]`: generated from the declarations in the registry it belongs to. */
export function helpCommand(registry: CommandRegistry) {
  return defineCommand({
    name: "help",
    args: { command: text("command", "a command to explain, e.g. `entity add`", { optional: true }) },
    summary: "list the commands, or explain one",
    permission: "anyone",
    examples: ["!help", "!help tasks", "!help entity"],
    run: async (_ctx, { command }) => registry.helpText(command ? command.split(" ") : []),
  });
}
