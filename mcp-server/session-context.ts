import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { SESSION_HEADER, SESSION_META_KEY } from "../policy/principal.ts";
import { refusal } from "../policy/refusals.ts";
import { refused, type ToolResult } from "./tool-result.ts";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export { SESSION_HEADER, SESSION_META_KEY } from "../policy/principal.ts";

const sessionIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);

/**
 * The oikos session of this tool call, carried out of band so the model can never choose it:
 * request `_meta["oikos/session"]` first, then the `x-oikos-session` transport header. Malformed
 * values count as absent.
 */
export function sessionIdFrom(extra: Pick<ToolExtra, "_meta" | "requestInfo">): string | null {
  const fromMeta = extra._meta?.[SESSION_META_KEY];
  const header = extra.requestInfo?.headers[SESSION_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  for (const candidate of [fromMeta, fromHeader]) {
    const parsed = sessionIdSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/**
 * For tools that must not run outside a session (run, plan and task tools): the session id, or the
 * tool-error result to return as is. Fails closed.
 */
export function requireSession(
  extra: Pick<ToolExtra, "_meta" | "requestInfo">,
  toolName: string,
): { sessionId: string } | { refusal: ToolResult } {
  const sessionId = sessionIdFrom(extra);
  if (sessionId) return { sessionId };
  // The next step is the table's: the agent's wording here, an outside client's in define-tool.ts.
  return {
    refusal: refused(
      refusal("no_session", `${toolName} needs an oikos session, and this call carries none.`),
    ),
  };
}
