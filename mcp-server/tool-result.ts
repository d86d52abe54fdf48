import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Refusal } from "../policy/refusals.ts";
import type { ToolOutcomeKind } from "../policy/tool-outcome.ts";

export type ToolResult = CallToolResult;

/** A tool's structured result: the value every client reads (`kind`, then the variant's fields). */
export type Outcome = { kind: Exclude<ToolOutcomeKind, "refused"> } & Record<string, unknown>;

/**
 * A successful result. `structuredContent` carries it for programs (agent loop, bot, outside MCP
 * clients); the text is the same value as compact JSON, which is what a model reads.
 */
export function ok(data: Outcome | Record<string, unknown>): ToolResult {
  const text = JSON.stringify(data);
  // The structured value is exactly what the text says (undefined fields dropped, dates as strings),
  // whatever the transport: in-memory clients get the object itself, not a serialised copy.
  return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
}

/**
 * A refusal from the run gate (run, run_many, inspect_path): policy's value unchanged as
 * `structuredContent`, and for the model `Refused (<code>): <reason>. Next: <next step>.`
 */
export function gateRefused(refusal: Refusal): ToolResult {
  const reason = refusal.reason.replace(/\.$/, "");
  const next = refusal.next_step.replace(/\.$/, "");
  return refusedWith(refusal, `Refused (${refusal.code}): ${reason}. Next: ${next}.`);
}

/**
 * Any other refusal or failure the model can act on: a tool result with `isError`, never a
 * transport error. The text is the reason followed by the next step (and any detail as JSON).
 */
export function refused(refusal: Refusal): ToolResult {
  const detail = refusal.detail === undefined ? "" : `\n${JSON.stringify(refusal.detail)}`;
  return refusedWith(refusal, `${refusal.reason} ${refusal.next_step}${detail}`);
}

function refusedWith(refusal: Refusal, text: string): ToolResult {
  return { content: [{ type: "text", text }], structuredContent: { ...refusal }, isError: true };
}
