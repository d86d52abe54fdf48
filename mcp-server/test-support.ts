import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SESSION_META_KEY } from "./session-context.ts";

export interface ToolCallOutcome {
  isError: boolean;
  text: string;
  /** Parsed JSON of a successful result; undefined for refusals. */
  json: unknown;
}

/** Calls a tool and unwraps the single text block our tools return. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  sessionId?: string,
): Promise<ToolCallOutcome> {
  const result = await client.callTool({
    name,
    arguments: args,
    ...(sessionId ? { _meta: { [SESSION_META_KEY]: sessionId } } : {}),
  });
  const content = result.content as { type: string; text?: string }[];
  const text = content.map((block) => block.text ?? "").join("\n");
  const isError = result.isError === true;
  return { isError, text, json: isError ? undefined : JSON.parse(text) };
}

/** The text inside an untrusted-output frame (jobs/execution/output-frame.ts); "" when empty. */
export function unframe(framed: unknown): string {
  const text = String(framed ?? "");
  if (text === "") return "";
  const match =
    /^--- begin untrusted output ([0-9a-f]+): [^\n]*---\n([\s\S]*)\n--- end untrusted output \1 ---$/.exec(
      text,
    );
  if (!match) throw new Error(`not a framed output: ${JSON.stringify(text.slice(0, 200))}`);
  return match[2]!;
}
