import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export type BearerCheck = { ok: true } | { ok: false; reason: "missing" | "invalid" };

/**
 * Compares the request's bearer token to the configured one in constant time. Both sides are hashed
 * first so the comparison length does not depend on (or leak) the token length.
 */
export function checkBearer(headers: IncomingHttpHeaders, expected: string): BearerCheck {
  const header = headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return { ok: false, reason: "missing" };
  const given = createHash("sha256").update(match[1]!).digest();
  const wanted = createHash("sha256").update(expected).digest();
  return timingSafeEqual(given, wanted) ? { ok: true } : { ok: false, reason: "invalid" };
}

/** The WWW-Authenticate value for a 401 (RFC 6750). */
export function bearerChallenge(reason: "missing" | "invalid"): string {
  return reason === "invalid"
    ? 'Bearer realm="oikos-mcp", error="invalid_token", error_description="The bearer token is not valid"'
    : 'Bearer realm="oikos-mcp"';
}
