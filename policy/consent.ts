/**
 * Reading an operator's chat reply as consent. Whole words and phrases only ("yes" is not in
 * "yesterday", "confirm" is not in "confirmed"), negation aware ("don't", "haven't", "can't
 * confirm", "absolutely not", curly apostrophes), and denial wins over assent when a message holds both.
 * When in doubt it is NOT assent (the operator can say it again plainly): assent counts only when
 * the assent phrase is essentially the whole short message, with courtesy words ("yes please",
 * "go ahead, thanks"), a reassurance ("go ahead, this is not risky") or an echo of the action
 * ("yes, restart it"). Questions, reported speech, quotes, deferrals ("yes after lunch"), partial
 * consent ("step 1 only") and instructions ("continue investigating") are not assent.
 *
 * Typed confirmation grammar (the only consent that can release a destructive command), the whole
 * message normalised by policy/typed-phrase.ts (backticks and quotes as copied from a card, a final
 * period, spacing, case), optionally after "yes, ":
 *   confirm <action> <target-slug>        e.g. `confirm destroy lxc:old-nextcloud`
 * action: a word (letters, digits, `-`, `_`); target-slug: `<type>:<name>`, or `local` for the
 * machine oikos runs on.
 */
import {
  ASSENT_PHRASES,
  COURTESY_PHRASES,
  DENIAL_ANYWHERE,
  DENIAL_AT_CLAUSE_START,
  ECHO_OBJECTS,
  ECHO_VERBS,
  HOLD_WORDS,
  NEGATORS,
  NEUTRAL_PHRASES,
  QUESTION_OPENERS,
  TURN_WORDS,
} from "./consent-phrases.ts";
import { normaliseTypedPhrase } from "./typed-phrase.ts";

export type Consent =
  | { kind: "assent" }
  | { kind: "denial" }
  | { kind: "typed_confirmation"; action: string; target: string }
  | { kind: "none" };

const MAX_ASSENT_TOKENS = 12;

const TYPED =
  /^(?:(?:yes|yep|yeah|ok|okay|sure)[\s,.!]+)?confirm\s+([a-z][a-z0-9_-]*)\s+([a-z][a-z0-9_-]*:[a-z0-9][a-z0-9._/@-]*|local)$/i;
/** "confirm destroy", "confirmed destroy lxc:x": the grammar not met, read as plain assent. */
const NEAR_TYPED = /^confirm(?:ed)?\s+[a-z][a-z0-9_-]*(?:\s+[a-z][a-z0-9_-]*(?::[a-z0-9][a-z0-9._/@-]*)?)?$/i;

function normalise(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u201B\u02BC\u2032`´]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .toLowerCase();
}

/** Splits into clauses (on , ; . ! ? and newlines) and each clause into word tokens. */
function clauses(text: string): string[][] {
  return text
    .split(/[,;.!?\n]+|\s[-–—]+\s/)
    .map(
      (clause) =>
        clause.match(/[a-z0-9']+(?:-[a-z0-9']+)*|\p{Extended_Pictographic}\uFE0F?|[✅✔❌✋]\uFE0F?/gu) ?? [],
    )
    .map((tokens) => tokens.map((token) => token.replace(/^'+|'+$/g, "")).filter((token) => token !== ""))
    .filter((tokens) => tokens.length > 0);
}

function phraseAt(tokens: string[], index: number, phrase: string): boolean {
  const words = phrase.split(" ");
  for (let i = 0; i < words.length; i++) if (tokens[index + i] !== words[i]) return false;
  return true;
}

type Label = "neutral" | "denial" | "assent" | "courtesy" | "other";

interface Span {
  label: Label;
  start: number;
  /** Exclusive. */
  end: number;
}

const byLength = (phrases: string[]): string[] =>
  [...phrases].sort((a, b) => b.split(" ").length - a.split(" ").length);

/** In priority order: neutral before denial before assent, so "don't worry" and "don't do it" win. */
const LEXICON: readonly (readonly [Label, string[]])[] = [
  ["neutral", byLength(NEUTRAL_PHRASES)],
  ["denial", byLength(DENIAL_ANYWHERE)],
  ["assent", byLength(ASSENT_PHRASES)],
  ["courtesy", byLength(COURTESY_PHRASES)],
];

/** Labels a clause left to right, longest phrase first, one span per phrase or unknown word. */
function spansOf(tokens: string[]): Span[] {
  const spans: Span[] = [];
  let i = 0;
  while (i < tokens.length) {
    let span: Span = { label: "other", start: i, end: i + 1 };
    for (const [label, phrases] of LEXICON) {
      const phrase = phrases.find((candidate) => phraseAt(tokens, i, candidate));
      if (phrase) {
        span = { label, start: i, end: i + phrase.split(" ").length };
        break;
      }
    }
    spans.push(span);
    i = span.end;
  }
  return spans;
}

function negatedAt(tokens: string[], spans: Span[], index: number): boolean {
  const neutral = (at: number) => spans.some((s) => s.label === "neutral" && at >= s.start && at < s.end);
  for (let back = 1; back <= 3 && index - back >= 0; back++) {
    if (neutral(index - back)) continue;
    const token = tokens[index - back] as string;
    const pair = index - back - 1 >= 0 ? `${tokens[index - back - 1]} ${token}` : "";
    if (NEGATORS.has(token) || NEGATORS.has(pair)) return true;
  }
  return false;
}

function deniesClause(tokens: string[], spans: Span[]): boolean {
  if (tokens.length === 1 && tokens[0] === "not") return true; // "go ahead - not!"
  for (let k = 0; k < spans.length; k++) {
    const span = spans[k] as Span;
    const previous = spans[k - 1];
    if (span.label === "denial" && !negatedAt(tokens, spans, span.start)) return true;
    if (span.label === "assent") {
      if (negatedAt(tokens, spans, span.start)) return true;
      const next = spans[k + 1];
      if (next?.label === "other" && NEGATORS.has(tokens[next.start] as string)) return true; // "of course not"
    }
    if (span.label !== "other" && span.label !== "courtesy") continue;
    const opensTurn =
      !previous || previous.label === "assent" || TURN_WORDS.has(tokens[previous.start] as string);
    const opener = opensTurn && DENIAL_AT_CLAUSE_START.find((phrase) => phraseAt(tokens, span.start, phrase));
    // "no" / "stop" / "wait" alone or leading a short clause ("no thanks", "stop it", "wait a sec").
    if (opener && tokens.length - span.start - opener.split(" ").length <= 3) return true;
  }
  return false;
}

type ClauseKind = "assent" | "courtesy" | "reassurance" | "echo" | "other";

function kindOf(tokens: string[], spans: Span[]): ClauseKind {
  const first = spans[0] as Span;
  if (first.label === "other" && QUESTION_OPENERS.has(tokens[0] as string)) return "other";
  const labels = new Set(spans.map((span) => span.label));
  if (!labels.has("other") && !labels.has("denial") && !labels.has("neutral")) {
    return labels.has("assent") ? "assent" : "courtesy";
  }
  const words = spans.filter((span) => span.label !== "courtesy").map((span) => tokens[span.start]);
  if (words.length === 1 && ECHO_VERBS.has(words[0] as string) && ECHO_OBJECTS.has(tokens.at(-1) as string)) {
    return "echo";
  }
  const loose = spans.filter((span) => span.label === "other").map((span) => tokens[span.start] as string);
  if (
    labels.has("neutral") &&
    !labels.has("denial") &&
    !loose.some((w) => HOLD_WORDS.has(w) || NEGATORS.has(w))
  ) {
    return "reassurance";
  }
  return "other";
}

/** Assent only when the message is a short assent, courtesy, reassurance and echo clauses around it. */
function isPlainAssent(normalised: string, parts: string[][]): boolean {
  if (normalised.includes("?")) return false;
  // Quoted words are reported or copied speech, not the operator's own answer.
  if (/(^|[\s(:])['"]\S|\S['"]($|[\s),.;:!])/.test(normalised)) return false;
  if (parts.reduce((sum, tokens) => sum + tokens.length, 0) > MAX_ASSENT_TOKENS) return false;
  const kinds = parts.map((tokens) => kindOf(tokens, spansOf(tokens)));
  return kinds.includes("assent") && !kinds.includes("other");
}

export function parseConsent(text: string): Consent {
  const normalised = normalise(text).trim();
  if (normalised === "") return { kind: "none" };
  const bare = normaliseTypedPhrase(text);
  const typed = TYPED.exec(bare);
  if (typed) {
    return {
      kind: "typed_confirmation",
      action: (typed[1] as string).toLowerCase(),
      target: typed[2] as string,
    };
  }
  const parts = clauses(normalised);
  if (parts.some((tokens) => deniesClause(tokens, spansOf(tokens)))) return { kind: "denial" };
  if (NEAR_TYPED.test(bare)) {
    const words = parts.flat();
    if (!words.some((word) => HOLD_WORDS.has(word) || NEGATORS.has(word))) return { kind: "assent" };
  }
  return isPlainAssent(normalised, parts) ? { kind: "assent" } : { kind: "none" };
}
