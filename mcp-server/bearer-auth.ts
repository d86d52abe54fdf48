import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { type Principal, type PrincipalRole, tokenPrincipal } from "../policy/principal.ts";

/** One bearer token the MCP endpoint accepts, and the principal it authenticates. */
export interface McpToken {
  name: string;
  token: string;
  role: PrincipalRole;
}

export type BearerCheck = { ok: true; principal: Principal } | { ok: false; reason: "missing" | "invalid" };

/**
 * Finds the configured token the request's bearer token equals, in constant time: both sides are
 * hashed first (so the comparison length does not depend on the token length) and every configured
 * token is compared, so the time taken does not say which one matched.
 */
export function checkBearer(headers: IncomingHttpHeaders, tokens: readonly McpToken[]): BearerCheck {
  const header = headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return { ok: false, reason: "missing" };
  const given = createHash("sha256").update(match[1]!).digest();
  let found: McpToken | undefined;
  for (const candidate of tokens) {
    const wanted = createHash("sha256").update(candidate.token).digest();
    if (timingSafeEqual(given, wanted) && !found) found = candidate;
  }
  return found
    ? { ok: true, principal: tokenPrincipal(found.name, found.role) }
    : { ok: false, reason: "invalid" };
}

/** The WWW-Authenticate value for a 401 (RFC 6750). */
export function bearerChallenge(reason: "missing" | "invalid"): string {
  return reason === "invalid"
    ? 'Bearer realm="oikos-mcp", error="invalid_token", error_description="The bearer token is not valid"'
    : 'Bearer realm="oikos-mcp"';
}
