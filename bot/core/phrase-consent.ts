import type { ConsentIntent } from "./core-deps.ts";

// Interim until policy/ exports parseConsent: whole words only (never "yes" inside "yesterday"),
// any negation wins, and a question is never consent.
const ASSENT = [
  "yes",
  "y",
  "ok",
  "okay",
  "approve",
  "approved",
  "go ahead",
  "proceed",
  "do it",
  "lgtm",
  "sounds good",
  "go",
];
const DENY = ["no", "n", "deny", "denied", "stop", "cancel", "abort", "don't", "do not", "reject"];
const NEGATION = [
  "not yet",
  "don't",
  "do not",
  "haven't",
  "hasn't",
  "isn't",
  "can't",
  "cannot",
  "won't",
  "wait",
  "hold on",
];

export function interimConsentIntent(text: string): ConsentIntent {
  const normal = ` ${text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^a-z0-9' ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()} `;
  if (text.trim().endsWith("?")) return "none";
  const has = (phrase: string) => normal.includes(` ${phrase} `);
  const words = normal.trim().split(" ").length;
  if (words > 8) return "none";
  if (DENY.some(has) || NEGATION.some(has)) return DENY.some(has) && !ASSENT.some(has) ? "deny" : "none";
  if (ASSENT.some(has)) return "approve";
  return "none";
}
