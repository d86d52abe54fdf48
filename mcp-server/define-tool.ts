import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { isOikosError } from "../app/errors.ts";
import { redact, redactObject } from "../policy/redact.ts";
import type { WriteContext } from "../store/audit.ts";
import { findControlByte } from "./argument-bytes.ts";
import { sessionIdFrom, type ToolExtra } from "./session-context.ts";
import type { ToolDeps } from "./tool-deps.ts";
import { refuse, type ToolResult } from "./tool-result.ts";

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
  annotations?: ToolAnnotations;
}

/**
 * Registers one tool: zod input schema (violations are rejected by the SDK before the handler runs),
 * the session context resolved out of band, and any thrown error turned into an `isError` result the
 * model can act on (OikosError messages verbatim; anything else logged and summarised).
 */
export function defineTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  deps: ToolDeps,
  name: string,
  definition: ToolDefinition<Shape>,
  handler: (args: z.infer<z.ZodObject<Shape>>, context: ToolContext) => Promise<ToolResult>,
): void {
  const callback = async (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra): Promise<ToolResult> => {
    const sessionId = sessionIdFrom(extra);
    const controlByte = findControlByte(args);
    if (controlByte) {
      return refuse(
        `Invalid argument \`${controlByte.path}\`: it contains ${controlByte.name} at position ${controlByte.index}. ` +
          `Arguments are text: remove control characters (tab and newline are fine) and call ${name} again.`,
        { code: "invalid_argument", field: controlByte.path },
      );
    }
    try {
      return redactResult(await handler(args, { sessionId, write: { by: deps.actor, sessionId }, extra }));
    } catch (error) {
      if (isOikosError(error)) return refuse(redact(error.message));
      deps.logger?.error({ err: error, tool: name, sessionId }, "MCP tool failed");
      return refuse(
        `${name} failed with an internal error (logged for the operator). Retry once; if it fails again, ` +
          "continue without this tool and tell the operator.",
      );
    }
  };
  server.registerTool(
    name,
    {
      description: definition.description,
      inputSchema: definition.inputSchema,
      annotations: definition.annotations,
    },
    callback as never,
  );
}

/**
 * Every tool result leaves through here, to the agent's model and to outside MCP clients: entity
 * attributes imported from an inventory, knowledge text and error messages can all carry secrets.
 */
function redactResult(result: ToolResult): ToolResult {
  return {
    ...result,
    content: result.content.map((item) =>
      item.type === "text" ? { ...item, text: redact(item.text) } : item,
    ),
    ...(result.structuredContent !== undefined
      ? { structuredContent: redactObject(result.structuredContent) }
      : {}),
  };
}
