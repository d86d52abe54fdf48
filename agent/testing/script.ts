import { type Matcher, match, type ScriptedReply } from "../../test-support/scripted-model/index.ts";

/** A reply with one tool call. */
export function call(name: string, args: Record<string, unknown> | string = {}): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** The request ends with the result of `tool`, and that result contains `pattern`. */
export function after(tool: string, pattern: string | RegExp = ""): Matcher {
  return match.all(match.endsWithToolResult(tool), match.lastToolResult(pattern, tool));
}
