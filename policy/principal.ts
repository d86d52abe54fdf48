/**
 * Who is on the other end of an MCP connection. Every connection has exactly one principal: the
 * in-process agent (it owns every chat, alert and scheduled session), the stdio client, or a named
 * bearer token from config (`mcp.tokens`). A session belongs to the principal that created it, and
 * only that principal may name it in a tool call: approvals, assent windows and destructive windows
 * are the session's, so lending a session id would lend the operator's consent.
 */
export const PRINCIPAL_ROLES = ["operator", "read"] as const;
/** `operator`: every tool; `read`: only tools that read oikos's own records (no run, no writes, no sessions). */
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

/**
 * How a tool call names its oikos session, out of band so the model can never choose it: the request
 * `_meta` key (the agent's MCP client sets it per call), or the transport header for HTTP clients
 * bound to one session. The wire contract between every MCP client and the server.
 */
export const SESSION_META_KEY = "oikos/session";
export const SESSION_HEADER = "x-oikos-session";

/** Whether `principal` may name a session owned by `owner` in a tool call. */
export function ownsSession(principal: Principal, owner: string): boolean {
  return principal.id === owner;
}

/**
 * Who a tool is for, declared by every tool. `records`: it only reads oikos's own records (inventory,
 * knowledge, graph). `operator`: everything else — writes, sessions, and running commands on hosts,
 * even read-only ones (`run_many`'s readOnlyHint tells a client it changes nothing; it still reaches
 * into the fleet, which a read token must not). Separate from the MCP annotation on purpose: a hint
 * a client reads is not a permission.
 */
export const TOOL_ACCESS = ["records", "operator"] as const;
export type ToolAccess = (typeof TOOL_ACCESS)[number];

/** Whether `principal` may call a tool declared for `access`. */
export function mayCallTool(principal: Principal, access: ToolAccess): boolean {
  return principal.role === "operator" || access === "records";
}
