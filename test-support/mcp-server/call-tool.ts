import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SESSION_META_KEY } from "../../mcp-server/session-context.ts";

export interface ToolCallOutcome {
  isError: boolean;
  text: string;
  /** Parsed JSON of a successful result; undefined for refusals. */
  json: unknown;
  /** The result's `structuredContent` (a refusal's `kind`, `code`, `reason`, `next_step` …). */
  structured: Record<string, unknown> | undefined;
}

/**
 * Calls a tool and unwraps the single text block our tools return. Every call also checks that the
 * structured content and the text say the same: a success's text is its structured content as
 * JSON, a refusal's text carries its reason and next step.
 */
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
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (structured && !isError)
    assert.deepEqual(JSON.parse(text), structured, `${name}: text and structured content differ`);
  if (structured?.kind === "refused") {
    assert.ok(isError, `${name}: a refusal is an error result`);
    // The text may drop a final period of either part (it adds its own punctuation).
    const part = (value: unknown) => String(value).replace(/\.$/, "");
    assert.ok(text.includes(part(structured.reason)), `${name}: the text carries the refusal's reason`);
    assert.ok(text.includes(part(structured.next_step)), `${name}: the text carries the refusal's next step`);
  }
  return { isError, text, json: isError ? undefined : JSON.parse(text), structured };
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
