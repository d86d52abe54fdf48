import { mergeSpans } from "./secrets/detect.ts";
import { secretDetector } from "./secrets/rule-set.ts";

/**
 * Removes secrets from text and log objects before they leave the process: chat posts and edits,
 * model context, logs, stored command output, MCP results and error messages. The detectors are
 * gitleaks' maintained rule set plus oikos' homelab rules (policy/secrets/).
 */

export const REDACTED = "[REDACTED]";

export interface RedactionReport {
  text: string;
  /** Rule id → how many secrets it found (a secret found by two rules counts for both). */
  hits: Record<string, number>;
}

/** Replaces every secret the rule set recognises with `[REDACTED]`. */
export function redact(text: string): string {
  return redactWithReport(text).text;
}

/** `redact`, plus which rules fired (for `oikos redact --report` and the corpus test). */
export function redactWithReport(text: string): RedactionReport {
  const findings = secretDetector.find(text);
  const hits: Record<string, number> = {};
  for (const finding of findings) hits[finding.rule] = (hits[finding.rule] ?? 0) + 1;
  if (findings.length === 0) return { text, hits };
  let out = "";
  let at = 0;
  for (const [start, end] of mergeSpans(findings)) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return { text: out + text.slice(at), hits };
}

const SECRET_KEY =
  /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth|credential|cookie|session[_-]?id)/i;

/**
 * A deep copy of `value` for logging: values under secret-named keys become `[REDACTED]`,
 * every string is passed through `redact`, cycles become `[Circular]`.
 */
export function redactObject<T>(value: T): T {
  return redactValue(value, new WeakSet()) as T;
}

function redactValue(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, seen));
  if (value instanceof Date) return value;
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redact(value.message),
      stack: value.stack ? redact(value.stack) : undefined,
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const countOfTokens = /tokens?$/i.test(key) && typeof item === "number";
    out[key] =
      SECRET_KEY.test(key) && !countOfTokens && item !== null && item !== undefined
        ? REDACTED
        : redactValue(item, seen);
  }
  return out;
}
