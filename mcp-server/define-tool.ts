import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { isOikosError } from "../base/errors.ts";
import type { ToolAccess } from "../policy/principal.ts";
import { REDACTED, redact } from "../policy/redact.ts";
import { refusal } from "../policy/refusals.ts";
import type { WriteContext } from "../store/audit.ts";
import { findControlByte } from "./argument-bytes.ts";
import { inClientWords } from "./client-wording.ts";
import { principalGate } from "./principal-gate.ts";
import { sessionIdFrom, type ToolExtra } from "./session-context.ts";
import type { ToolDeps } from "./tool-deps.ts";
import { refused, type ToolResult } from "./tool-result.ts";

export interface ToolContext {
  /** The oikos session of this call, or null (outside clients). Use requireSession to fail closed. */
  sessionId: string | null;
  /** Attribution for writes and the audit log. */
  write: WriteContext;
  extra: ToolExtra;
}

export interface ToolDefinition<Shape extends z.ZodRawShape> {
  /** Written for a model: what it does, when to use it, what comes back. */
  description: string;
  inputSchema: Shape;
  /** The structured result's schema (mcp-server/output-schema.ts outcomeSchema), declared as MCP `outputSchema`. */
  outputSchema?: z.ZodObject;
  annotations?: ToolAnnotations;
  /** Who may call it (policy/principal.ts): `records` lets read tokens in; everything else is `operator`. */
  access: ToolAccess;
}

/**
 * Registers one tool: zod input schema (violations are rejected by the SDK before the handler runs),
 * the declared output schema, the session context resolved out of band and checked against the
 * connection's principal (mcp-server/principal-gate.ts), and any thrown error turned
 * into an `isError` refusal the model can act on (OikosError messages verbatim as `tool_failed`;
 * anything else logged and summarised as `internal_error`).
 */
export function defineTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  deps: ToolDeps,
  name: string,
  definition: ToolDefinition<Shape>,
  handler: (args: z.infer<z.ZodObject<Shape>>, context: ToolContext) => Promise<ToolResult>,
): void {
  const callback = async (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra): Promise<ToolResult> =>
    inClientWords(await answer(args, extra), deps.principal);
  const answer = async (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra): Promise<ToolResult> => {
    const sessionId = sessionIdFrom(extra);
    const controlByte = findControlByte(args);
    if (controlByte) {
      return refused(
        refusal(
          "invalid_argument",
          `Invalid argument \`${controlByte.path}\`: it contains ${controlByte.name} at position ${controlByte.index}.`,
          `Arguments are text: remove control characters (tab and newline are fine) and call ${name} again.`,
          { field: controlByte.path },
        ),
      );
    }
    try {
      const gate = await principalGate(deps, name, definition.access, sessionId);
      if (gate) return gate;
      return redactResult(
        await handler(args, { sessionId, write: { by: deps.principal.id, sessionId }, extra }),
      );
    } catch (error) {
      if (isOikosError(error)) return refused(refusal("tool_failed", error.message));
      deps.logger?.error({ err: error, tool: name, sessionId }, "MCP tool failed");
      return refused(
        refusal("internal_error", `${name} failed with an internal error (logged for the operator).`),
      );
    }
  };
  server.registerTool(
    name,
    {
      description: definition.description,
      inputSchema: definition.inputSchema,
      ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
      annotations: definition.annotations,
    },
    callback as never,
  );
}

/**
 * Every tool result leaves through here, to the agent's model and to outside MCP clients: entity
 * attributes imported from an inventory, knowledge text and error messages can all carry secrets.
 * A structured result is redacted as the JSON a reader sees (so `"ansible_ssh_pass":"…"` is caught
 * with its key), and when its text is that JSON the text is written again from the redacted value:
 * text and structured content stay one value.
 */
function redactResult(result: ToolResult): ToolResult {
  const structured = result.structuredContent;
  if (structured === undefined) {
    return {
      ...result,
      content: result.content.map((item) =>
        item.type === "text" ? { ...item, text: redact(item.text) } : item,
      ),
    };
  }
  const [only] = result.content;
  const textIsTheValue =
    result.content.length === 1 && only?.type === "text" && only.text === JSON.stringify(structured);
  const structuredContent = redactStructured(structured);
  return {
    ...result,
    content: textIsTheValue
      ? [{ type: "text", text: JSON.stringify(structuredContent) }]
      : result.content.map((item) => (item.type === "text" ? { ...item, text: redact(item.text) } : item)),
    structuredContent,
  };
}

/** The value redacted as its JSON text; if redaction left no valid JSON, field by field with each key. */
function redactStructured(value: Record<string, unknown>): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(redact(JSON.stringify(value)));
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through: redact each value in the context of its key
  }
  return redactWithKeys(value) as Record<string, unknown>;
}

/**
 * Each string redacted on its own, and once more as `key=value` so a secret named only by its key
 * (`ansible_ssh_pass`) is caught too.
 */
function redactWithKeys(value: unknown, key?: string): unknown {
  if (typeof value === "string") {
    const alone = redact(value);
    if (key === undefined) return alone;
    const pair = `${key}=${alone}`;
    const redacted = redact(pair);
    if (redacted === pair) return alone;
    return redacted.startsWith(`${key}=`) ? redacted.slice(key.length + 1) : REDACTED;
  }
  if (Array.isArray(value)) return value.map((item) => redactWithKeys(item));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactWithKeys(v, k)]));
  }
  return value;
}
