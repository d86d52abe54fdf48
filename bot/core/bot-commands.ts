/**
 * Chat commands are declared with their help, arguments and permission; `!help` is generated
 * from the declarations, and the permission is checked before a command runs.
 */
export type Permission = "anyone" | "operator" | "admin";

export interface CommandContext {
  user: string;
  platform: string;
  room: string;
  thread: string | null;
}

export interface BotCommand {
  name: string;
  args?: string;
  summary: string;
  permission: Permission;
  run(ctx: CommandContext, args: string[]): Promise<string>;
}

export interface Roles {
  isOperator(user: string): boolean;
  isAdmin(user: string): boolean;
}

export class CommandRegistry {
  readonly #commands = new Map<string, BotCommand>();

  add(command: BotCommand): this {
    if (this.#commands.has(command.name)) throw new Error(`command ${command.name} is declared twice`);
    this.#commands.set(command.name, command);
    return this;
  }

  get(name: string): BotCommand | undefined {
    return this.#commands.get(name);
  }

  list(): BotCommand[] {
    return [...this.#commands.values()];
  }

  /** Runs `text` when it is a command (`!name …`, or `!oikos name …`); null when it is not one. */
  async dispatch(text: string, ctx: CommandContext, roles: Roles): Promise<string | null> {
    const parsed = parseCommand(text);
    if (!parsed) return null;
    const command = this.#commands.get(parsed.name);
    if (!command) return `Unknown command \`!${parsed.name}\`. Type \`!help\` for the list.`;
    if (command.permission === "admin" && !roles.isAdmin(ctx.user)) {
      return `\`!${command.name}\` is for admins; ${ctx.user} is not one.`;
    }
    if (command.permission === "operator" && !roles.isOperator(ctx.user) && !roles.isAdmin(ctx.user)) {
      return `\`!${command.name}\` is for operators; ${ctx.user} is not one.`;
    }
    return command.run(ctx, parsed.args);
  }

  helpText(): string {
    const rows = this.list().map((c) => {
      const usage = `!${c.name}${c.args ? ` ${c.args}` : ""}`;
      const who = c.permission === "anyone" ? "" : ` (${c.permission})`;
      return `  ${usage.padEnd(34)} ${c.summary}${who}`;
    });
    return ["Commands:", ...rows, "Anything else you type is a message to the agent."].join("\n");
  }
}

/** `!status`, `!oikos status`, `/oikos status` → {name: "status", args: []}. */
export function parseCommand(text: string): { name: string; args: string[] } | null {
  const trimmed = text.trim();
  const match = /^(?:!|\/)(\S+)(.*)$/s.exec(trimmed);
  if (!match) return null;
  let words = [match[1]!, ...match[2]!.trim().split(/\s+/).filter(Boolean)];
  if (words[0] === "oikos") words = words.slice(1);
  if (words.length === 0) return { name: "help", args: [] };
  return { name: words[0]!.toLowerCase(), args: words.slice(1) };
}
