import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type ToolResult = CallToolResult;

/** A successful result: compact JSON text a model reads easily. */
export function ok(data: unknown): ToolResult {
  return { content: [{ type: "text", text: JSON.stringify(data) }] };
}

/**
 * A refusal or failure the model can act on: a tool result with `isError`, never a transport error.
 * The message says what went wrong and what to do next; `data` adds machine-readable detail.
 */
export function refuse(message: string, data?: unknown): ToolResult {
  const text = data === undefined ? message : `${message}\n${JSON.stringify(data)}`;
  return { content: [{ type: "text", text }], isError: true };
}
