import { mayCallTool, ownsSession, type ToolAccess } from "../policy/principal.ts";
import { refusal } from "../policy/refusals.ts";
import { recordAudit } from "../store/audit.ts";
import { sessionPrincipal } from "../store/sessions.ts";
import type { ToolDeps } from "./tool-deps.ts";
import { refused, type ToolResult } from "./tool-result.ts";

/**
 * Before any tool runs: may this connection's principal call it, and may it name this session?
 * A session id is only a name; owning it is what carries its approvals and windows, so naming a
 * session another principal owns is refused (and audited) whatever the tool. An unknown id passes
 * here and is refused by the tool that needs the session.
 */
export async function principalGate(
  deps: ToolDeps,
  tool: string,
  access: ToolAccess,
  sessionId: string | null,
): Promise<ToolResult | null> {
  const { principal } = deps;
  if (!mayCallTool(principal, access)) {
    return refused(
      refusal(
        "read_only_principal",
        `${tool} is not read-only, and ${principal.id} has the read role.`,
        undefined,
        { principal: principal.id, tool },
      ),
    );
  }
  if (!sessionId) return null;
  const owner = await sessionPrincipal(deps.db, sessionId);
  if (owner === undefined || ownsSession(principal, owner)) return null;
  await recordAudit(
    deps.db,
    { by: principal.id, sessionId },
    { action: "session_not_yours", subject: sessionId, details: { tool } },
  );
  deps.logger?.warn(
    { principal: principal.id, tool, sessionId },
    "tool call named another principal's session",
  );
  return refused(
    refusal(
      "session_not_yours",
      `${tool} refused: session ${sessionId} belongs to another client, not to ${principal.id}.`,
    ),
  );
}
