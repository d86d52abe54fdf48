import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { AlertSourceConfig } from "../config.ts";

/** Why a request was not let in; every code is a 401 (the body names it, never the secret). */
export type AuthFailure =
  | "missing_token"
  | "bad_token"
  | "missing_signature"
  | "bad_signature"
  | "stale_timestamp";

export const DEFAULT_SIGNATURE_HEADER = {
  grafana: "x-grafana-alerting-signature",
  generic: "x-oikos-signature",
} as const;

/** Grafana's signed timestamp may be this far from our clock. */
const MAX_SKEW_S = 300;

/**
 * Checks every credential the source is configured with: its bearer token, its HMAC signature,
 * or both. Comparisons take the same time whatever the input (digests of equal length).
 */
export function authenticate(
  source: AlertSourceConfig,
  headers: IncomingHttpHeaders,
  body: Buffer,
  now: Date = new Date(),
): AuthFailure | null {
  if (source.token !== undefined) {
    const header = one(headers.authorization);
    if (!header) return "missing_token";
    const [scheme, ...rest] = header.trim().split(/\s+/);
    if (scheme?.toLowerCase() !== "bearer" || !sameSecret(rest.join(" "), source.token)) return "bad_token";
  }
  if (source.hmacSecret !== undefined) {
    const name = (
      source.hmacHeader ?? DEFAULT_SIGNATURE_HEADER[source.kind === "grafana" ? "grafana" : "generic"]
    ).toLowerCase();
    const given = one(headers[name])
      ?.trim()
      .replace(/^sha256=/, "");
    if (!given) return "missing_signature";
    let signed = body;
    if (source.timestampHeader) {
      const stamp = one(headers[source.timestampHeader.toLowerCase()])?.trim();
      if (!stamp || !/^\d+$/.test(stamp)) return "missing_signature";
      if (Math.abs(now.getTime() / 1000 - Number(stamp)) > MAX_SKEW_S) return "stale_timestamp";
      signed = Buffer.concat([Buffer.from(`${stamp}:`), body]);
    }
    const expected = createHmac("sha256", source.hmacSecret).update(signed).digest("hex");
    if (!sameSecret(given.toLowerCase(), expected)) return "bad_signature";
  }
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
