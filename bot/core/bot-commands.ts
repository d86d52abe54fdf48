import type { CardKind } from "../../store/chat-cards.ts";
import type { Card } from "./card.ts";
import type { AnswerVisibility } from "./chat-adapter.ts";
import { type ArgDefs, type ArgValues, parseArgs, splitWords } from "./command-args.ts";

/**
 * Chat commands are declared once with their help, arguments and permission: `!help` and
 * `!help <command>` are generated from the declarations, the arguments are checked against them,
 * and the permission is checked before a command runs. A command name may have two words
 * (`entity add`); the longest declared name wins.
 */
export type Permission = "anyone" | "operator" | "admin";

export interface CommandContext {
  user: string;
  platform: string;
  room: string;
  thread: string | null;
  /** Whether the user acts for every room (global lists) or only for this one. */
  fleetWide: boolean;
  /** A link to a thread in a room of this platform, when the platform has links. */
  threadLink(platform: string, room: string, thread: string): string | undefined;
}

/** A card a command posts (e.g. one per learned pattern), registered so reactions to it find it. */
export interface CommandCard {
  card: Card;
  kind: CardKind;
  subjectId: string;
}

export type CommandReply = string | { text: string; cards?: CommandCard[] };

export interface BotCommand<A extends ArgDefs = ArgDefs> {
  name: string;
  args: A;
  summary: string;
  permission: Permission;
  /** Shown by `!help <command>`: what the command is for, beyond the summary. */
  details?: string;
  examples?: readonly string[];
  /**
   * Where the answer text goes when the platform can answer privately (a Slack slash command):
   * `private` (the default: refusals, help, status and admin results are for the sender) or
   * `room` (everyone in the channel sees it). Cards a command returns are always posted.
   */
  visibility?: AnswerVisibility;
  run(ctx: CommandContext, args: ArgValues<A>): Promise<CommandReply>;
}

/** Keeps the argument types of one declaration when commands of many shapes share a registry. */
export function defineCommand<A extends ArgDefs>(command: BotCommand<A>): BotCommand {
  return command as unknown as BotCommand;
}

export interface Roles {
  isOperator(user: string): boolean;
  isAdmin(user: string): boolean;
}

export class CommandRegistry {
  readonly #commands = new Map<string, BotCommand>();

  add(command: BotCommand): this {
    if (this.#commands.has(command.name)) throw new Error(`command ${command.name} is declared twice`);
    const names = Object.keys(command.args);
    const restAt = names.findIndex((n) => command.args[n]!.rest);
    if (restAt >= 0 && restAt !== names.length - 1)
      throw new Error(`command ${command.name}: only the last argument may take the rest of the line`);
    this.#commands.set(command.name, command);
    return this;
  }

  get(name: string): BotCommand | undefined {
    return this.#commands.get(name);
  }

  list(): BotCommand[] {
    return [...this.#commands.values()];
  }

  /** Runs `text` when it is a command (`!name …`, `!oikos name …`, `/oikos name …`); null when it is not one. */
  async dispatch(text: string, ctx: CommandContext, roles: Roles): Promise<CommandReply | null> {
    const parsed = parseCommand(text);
    if (!parsed) return null;
    const found = this.#resolve(parsed.words);
    if (!found) {
      const name = parsed.words[0] ?? "";
      return `There is no command \`!${name}\`. Type \`!help\` for the list.`;
    }
    const { command, args } = found;
    if (command.permission === "admin" && !roles.isAdmin(ctx.user)) {
      return `Sorry, \`!${command.name}\` is for admins, and ${ctx.user} is not an admin here. An admin can run it, or add you to OIKOS_ADMINS (or this room's admins in chat.rooms).`;
    }
    if (command.permission === "operator" && !roles.isOperator(ctx.user) && !roles.isAdmin(ctx.user)) {
      return `Sorry, \`!${command.name}\` is for operators, and ${ctx.user} is not one here.`;
    }
    const values = parseArgs(command.args, args);
    if (!values.ok) {
      return `\`!${command.name}\`: ${values.problem}.\nUsage: \`${usageOf(command)}\` (\`!help ${command.name}\` explains it).`;
    }
    return command.run(ctx, values.values);
  }

  /** Where the answer to `text` goes: private unless its command says `room`. */
  visibilityOf(text: string): AnswerVisibility {
    const parsed = parseCommand(text);
    return (parsed && this.#resolve(parsed.words)?.command.visibility) ?? "private";
  }

  /** The command a line names: two-word names first (`entity add`), then one word. */
  #resolve(words: readonly string[]): { command: BotCommand; args: string[] } | undefined {
    const [first, second] = [words[0]?.toLowerCase(), words[1]?.toLowerCase()];
    if (first === undefined) return undefined;
    if (second !== undefined) {
      const pair = this.#commands.get(`${first} ${second}`);
      if (pair) return { command: pair, args: words.slice(2) };
    }
    const single = this.#commands.get(first);
    return single ? { command: single, args: words.slice(1) } : undefined;
  }

  /** `!help`: one line per command; `!help <command>`: its usage, arguments and examples. */
  helpText(topic: readonly string[] = []): string {
    if (topic.length > 0) {
      const family = this.list().filter((c) => c.name.split(" ")[0] === topic[0]?.toLowerCase());
      const found = this.#resolve(topic);
      const exact = found?.args.length === 0 ? found.command : undefined;
      if (exact && (topic.length > 1 || family.length === 1)) return commandHelp(exact);
      if (family.length === 0)
        return `There is no command \`!${topic.join(" ")}\`. Type \`!help\` for the list.`;
      return family.map(commandHelp).join("\n\n");
    }
    const rows = this.list().map((c) => {
      const who = c.permission === "anyone" ? "" : ` (${c.permission}s)`;
      return `  ${usageOf(c).padEnd(40)} ${c.summary}${who}`;
    });
    return [
      "Commands (Matrix `!oikos <command>` or `!<command>`, Slack `/oikos <command>`, terminal `!<command>`):",
      ...rows,
      "`!help <command>` explains one. Anything else you type is a message to the agent.",
    ].join("\n");
  }
}

export function usageOf(command: BotCommand): string {
  const args = Object.values(command.args).map((a) => a.usage);
  return [`!${command.name}`, ...args].join(" ");
}

function commandHelp(command: BotCommand): string {
  const lines = [`\`${usageOf(command)}\` — ${command.summary}`];
  if (command.details) lines.push(command.details);
  for (const def of Object.values(command.args)) lines.push(`  ${def.usage.padEnd(28)} ${def.help}`);
  lines.push(
    command.permission === "anyone"
      ? "Anyone the bot listens to may run it."
      : `Only ${command.permission}s may run it.`,
  );
  if (command.examples?.length) lines.push(`Examples: ${command.examples.map((e) => `\`${e}\``).join(", ")}`);
  return lines.join("\n");
}

/** `!status`, `!oikos status`, `/oikos status` → {words: ["status"]}; null when the line is not a command. */
export function parseCommand(text: string): { name: string; words: string[] } | null {
  const trimmed = text.trim();
  // `/oikos …` only: a message that starts with a path ("/var is full") is a message.
  const slash = trimmed.startsWith("/") && splitWords(trimmed.slice(1))[0]?.toLowerCase() === "oikos";
  if (!trimmed.startsWith("!") && !slash) return null;
  if (trimmed.length === 1 || /^\s/.test(trimmed.slice(1))) return null;
  let words = splitWords(trimmed.slice(1));
  if (words[0]!.toLowerCase() === "oikos") words = words.slice(1);
  if (words.length === 0) words = ["help"];
  return { name: words[0]!.toLowerCase(), words };
}
