/**
 * Who is on the other end of an MCP connection. Every connection has exactly one principal: the
 * in-process agent (it owns every chat, alert and scheduled session), the stdio client, or a named
 * bearer token from config (`mcp.tokens`). A session belongs to the principal that created it, and
 * only that principal may name it in a tool call: approvals, assent windows and destructive windows
 * are the session's, so lending a session id would lend the operator's consent.
 */
export const PRINCIPAL_ROLES = ["operator", "read"] as const;
/** `operator`: every tool; `read`: only tools annotated read-only (no run, no writes, no sessions). */
export type PrincipalRole = (typeof PRINCIPAL_ROLES)[number];

export interface Principal {
  /** Stored as `sessions.principal` and as the actor of the audit rows this principal causes. */
  id: string;
  role: PrincipalRole;
}

/** The agent that serves chat: the owner of every session the bot, alerts and schedules create. */
export const AGENT_PRINCIPAL: Principal = { id: "agent", role: "operator" };
/** `oikos mcp --stdio`: a local client, its own principal. */
export const STDIO_PRINCIPAL: Principal = { id: "stdio", role: "operator" };

/** A named token's principal; the `mcp:` prefix keeps a token from ever being named like the agent. */
export function tokenPrincipal(name: string, role: PrincipalRole): Principal {
  return { id: `mcp:${name}`, role };
}

/** Whether `principal` may name a session owned by `owner` in a tool call. */
export function ownsSession(principal: Principal, owner: string): boolean {
  return principal.id === owner;
}

/** Whether `principal` may call a tool; `readOnly` is the tool's readOnlyHint annotation. */
export function mayCallTool(principal: Principal, readOnly: boolean): boolean {
  return principal.role === "operator" || readOnly;
}
