import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import { defineTool, type ToolContext, type ToolDefinition } from "../define-tool.ts";
import { requireSession } from "../session-context.ts";
import type { ToolDeps } from "../tool-deps.ts";
import type { ToolResult } from "../tool-result.ts";

/**
 * A tool that only works inside an oikos session: registered with defineTool, and refused (fail
 * closed, with requireSession's explanation) when the call carries no session id.
 */
export function defineSessionTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  deps: ToolDeps,
  name: string,
  definition: ToolDefinition<Shape>,
  handler: (
    args: z.infer<z.ZodObject<Shape>>,
    sessionId: string,
    context: ToolContext,
  ) => Promise<ToolResult>,
): void {
  defineTool(server, deps, name, definition, async (args, context) => {
    const session = requireSession(context.extra, name);
    if ("refusal" in session) return session.refusal;
    return handler(args, session.sessionId, context);
  });
}
