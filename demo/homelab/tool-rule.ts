import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The fake command every simulated host runs for its tools (a node script; see its header). */
export const FAKE_TOOL_PATH = fileURLToPath(new URL("./fake-tool.mjs", import.meta.url));

/** One fake command behaviour on a simulated host: the first rule whose `args` and `when` hold answers. */
export const toolRuleSchema = z.object({
  /** A regular expression over the joined arguments. */
  args: z.string().optional(),
  /** World variables that must hold. */
  when: z.record(z.string(), z.unknown()).optional(),
  /** The command hangs while these variables hold. */
  hang_while: z.record(z.string(), z.unknown()).optional(),
  sleep_ms: z.number().int().min(0).optional(),
  /** World variables the command changes. */
  set: z.record(z.string(), z.unknown()).optional(),
  /** Output, with `{{var}}` replaced by the world variable. */
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  exit: z.number().int().optional(),
});
export type ToolRule = z.infer<typeof toolRuleSchema>;

/** The world file fake-tool.mjs reads: variables, and every tool's rules in order. */
export function worldFile(vars: Record<string, unknown>, tools: Record<string, ToolRule[]>): string {
  const rules = Object.entries(tools).flatMap(([tool, toolRules]) =>
    toolRules.map((rule) => ({ tool, ...rule })),
  );
  return JSON.stringify({ vars, rules });
}

/**
 * The shim that stands in for `tool` on a simulated host: it runs the fake tool with this Node.
 * `stateDir` is baked in when the host's environment does not name it (OIKOS_LAB_STATE).
 */
export function toolShim(fakeToolPath: string, tool: string, stateDir?: string): string {
  const state = stateDir ? `OIKOS_LAB_STATE=${singleQuoted(stateDir)} ` : "";
  return `#!/bin/sh\n${state}exec ${singleQuoted(process.execPath)} ${singleQuoted(fakeToolPath)} ${tool} "$@"\n`;
}

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
