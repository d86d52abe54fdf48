import type { Arg } from "./command-view.ts";

/** More words than this from one command's braces: not expanded (the proof still refuses it). */
const MAX_WORDS = 64;

/**
 * bash's brace expansion of one unquoted word, as bash does it before any other expansion:
 * `{destroy,-r}` → `destroy -r`, `/d{e,}v` → `/dev /v`, `{1..3}` → `1 2 3`, nested and repeated
 * groups left to right. Returns null when the word has no brace group, or makes more than
 * MAX_WORDS words.
 */
export function expandBraceWord(word: string): string[] | null {
  const words = expand(word, 0);
  return words && (words.length > 1 || words[0] !== word) ? words : null;
}

function expand(word: string, from: number): string[] | null {
  const group = firstGroup(word, from);
  if (!group) return [word];
  const prefix = word.slice(0, group.start);
  const suffix = word.slice(group.end + 1);
  const out: string[] = [];
  for (const alternative of group.alternatives) {
    const words = expand(prefix + alternative + suffix, prefix.length);
    if (!words) return null;
    out.push(...words);
    if (out.length > MAX_WORDS) return null;
  }
  return out;
}

interface Group {
  start: number;
  end: number;
  alternatives: string[];
}

/** The first `{…}` from `from` that bash expands: a top-level comma, or a valid sequence. */
function firstGroup(word: string, from: number): Group | null {
  for (let start = word.indexOf("{", from); start >= 0; start = word.indexOf("{", start + 1)) {
    if (start > 0 && word[start - 1] === "$") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < word.length; i++) {
      const c = word[i];
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (depth === 0) {
          const body = word.slice(start + 1, i);
          if (commas.length > 0) {
            const cuts = [start, ...commas, i];
            const alternatives = cuts.slice(1).map((cut, k) => word.slice(cuts[k]! + 1, cut));
            return { start, end: i, alternatives };
          }
          const sequence = sequenceOf(body);
          if (sequence) return { start, end: i, alternatives: sequence };
          break;
        }
      } else if (c === "," && depth === 1) commas.push(i);
    }
  }
  return null;
}

/** `{1..5}`, `{5..1..2}`, `{a..e}`: the words of a sequence, or null when it is not one. */
function sequenceOf(body: string): string[] | null {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  if (numbers) {
    const [a, b] = [Number(numbers[1]), Number(numbers[2])];
    const step = Math.abs(Number(numbers[3] ?? 1)) || 1;
    if (Math.abs(b - a) / step >= MAX_WORDS) return null;
    const out: string[] = [];
    for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? step : -step) out.push(String(n));
    return out;
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (letters) {
    const [a, b] = [letters[1]!.charCodeAt(0), letters[2]!.charCodeAt(0)];
    const step = Math.abs(Number(letters[3] ?? 1)) || 1;
    const out: string[] = [];
    for (let n = a; a <= b ? n <= b : n >= b; n += a <= b ? step : -step) out.push(String.fromCharCode(n));
    return out;
  }
  return null;
}

/** A `{`, then a `,` or `..`, then a `}`: text bash may brace-expand in ways not modelled here. */
const BRACE_LIKE = /\{.*(,|\.\.).*\}/;

export interface BraceExpandedArgv {
  argv: Arg[];
  /**
   * A plain word still holds brace-like text after expansion (`{x..},rm}`: bash skips the first
   * `}` and makes `x..}` `rm`): what bash makes of it is not known exactly, so the caller must not
   * judge the argv as read-only on these words.
   */
  uncertain: boolean;
}

/**
 * The argv bash runs when some of its words brace-expand, or null when no word has brace text.
 * Only plain words are expanded (no quotes, escapes, expansions or globs in them): for those the
 * expansion follows bash, empty words dropped as bash drops them; any other word stays as it is
 * (the proof treats every brace word as run-time text, so nothing with braces is ever read-only).
 */
export function expandArgvBraces(argv: Arg[]): BraceExpandedArgv | null {
  let changed = false;
  let uncertain = false;
  const out: Arg[] = [];
  for (const arg of argv) {
    const plain = arg.dynamic === "none" && arg.raw === arg.value && !/['"\\$`*?[]/.test(arg.raw);
    const words = plain ? expandBraceWord(arg.raw) : null;
    if (!words) {
      if (plain && BRACE_LIKE.test(arg.raw)) uncertain = true;
      out.push(arg);
      continue;
    }
    changed = true;
    for (const word of words) {
      if (BRACE_LIKE.test(word)) uncertain = true;
      if (word !== "") out.push({ value: word, raw: word, dynamic: "none" });
    }
    if (out.length > MAX_WORDS * 2) return { argv, uncertain: true };
  }
  return changed || uncertain ? { argv: changed ? out : argv, uncertain } : null;
}
