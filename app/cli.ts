import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isOikosError } from "../base/errors.ts";
import { redact } from "../policy/redact.ts";
import type { CommandIO, CommandModule } from "./command-module.ts";

const COMMANDS_DIR = fileURLToPath(new URL("./commands/", import.meta.url));

function commandNames(): string[] {
  return readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function loadCommand(name: string): Promise<CommandModule> {
  return (await import(new URL(`./commands/${name}.ts`, import.meta.url).href)) as CommandModule;
}

async function printHelp(io: CommandIO): Promise<void> {
  const lines = [
    "oikos — chat-ops agent for self-hosted infrastructure",
    "",
    "Usage: oikos <command> [options]",
    "",
  ];
  for (const name of commandNames()) {
    const command = await loadCommand(name);
    lines.push(`  ${name.padEnd(10)} ${command.description}`);
  }
  lines.push("", "Run `oikos help <command>` for a command's options. Configuration: docs/configuration.md.");
  io.stdout.write(`${lines.join("\n")}\n`);
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    const topic = rest[0];
    if (name === "help" && topic && commandNames().includes(topic)) {
      const command = await loadCommand(topic);
      io.stdout.write(`oikos ${topic} — ${command.description}\n${command.usage ?? ""}\n`);
      return 0;
    }
    await printHelp(io);
    return 0;
  }
  if (!commandNames().includes(name)) {
    io.stderr.write(`oikos: unknown command "${name}". Known: ${commandNames().join(", ")}.\n`);
    return 2;
  }
  const command = await loadCommand(name);
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isOikosError(error)) {
      io.stderr.write(`oikos ${name}: ${redact(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  (await import("./dot-env.ts")).loadDotEnv();
  const code = await main(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
  process.exitCode = code;
}
