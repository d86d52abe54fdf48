/**
 * A pattern shaped `\bword\b GAP{0,N}? TAIL` (`\bcurl\b[\s\S]{0,1024}?[ \t\n\r](?:-u|--user)…`: a
 * command's name, then its option anywhere in the next N characters) matched without reading the
 * window again for every occurrence of the word.
 *
 * As a regex it costs up to N steps per occurrence of the word: text with many `curl`s (a script, a
 * shell history, a hostile output) is read N times over. Found the same way it is linear: for an
 * occurrence at `s`, the regex tries TAIL at the positions s+L, s+L+1, … (L the word's length) as
 * long as the gap is at most N characters of GAP's class, and takes the first where TAIL matches.
 * Neither the word nor GAP captures anything, so whether and how TAIL matches at a position does
 * not depend on `s`: the leftmost TAIL match at or after s+L, found by a search of TAIL alone and
 * remembered for the occurrences after, decides. The match is the regex's: same start, end, groups
 * and indices (lead-window.test.ts holds it to the regex on every rule of this shape).
 */
export interface LeadWindow {
  /** `regex.exec(text)` with `regex.lastIndex = from`, for the regex this was built from (flags `gd`). */
  exec(text: string, from: number): RegExpExecArray | null;
}

// `\bword\b`, then a class that is `[\s\S]` or a plain negated class, lazily {0,N}.
const SHAPE = /^\\b([A-Za-z0-9_-]+)\\b(\[\\s\\S\]|\[\^(?:[^\]\\[]|\\.)*\])\{0,(\d+)\}\?(.+)$/s;

/** The fast matcher for `pattern`, or null when it is not of that shape. */
export function leadWindow(pattern: RegExp): LeadWindow | null {
  const shape = SHAPE.exec(pattern.source);
  if (!shape) return null;
  const [, word, gap, bound, tail] = shape as unknown as [string, string, string, string, string];
  if (!isOneAlternative(tail)) return null;
  const flags = [...new Set(`${pattern.flags.replace(/[gy]/g, "")}gd`)].join("");
  return new Matcher(
    new RegExp(`\\b${word}\\b`, flags),
    word.length,
    gap === "[\\s\\S]" ? null : new RegExp(`[${gap.slice(2)}`, flags),
    Number(bound),
    new RegExp(tail, flags),
  );
}

/** False when `source` has a `|` outside every group and class (then the tail is not one piece). */
function isOneAlternative(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return false;
  }
  return true;
}

/** The next match of a global regex at or after a position, remembered for the queries after it. */
class NextMatch {
  private text: string | null = null;
  private from = 0;
  private found: RegExpExecArray | null = null;
  private readonly regex: RegExp;

  constructor(regex: RegExp) {
    this.regex = regex;
  }

  at(text: string, from: number): RegExpExecArray | null {
    // The leftmost match from `this.from` is the leftmost from any position up to its start.
    if (text === this.text && this.from <= from && (this.found === null || this.found.index >= from))
      return this.found;
    this.regex.lastIndex = from;
    this.text = text;
    this.from = from;
    this.found = this.regex.exec(text);
    return this.found;
  }
}

class Matcher implements LeadWindow {
  private readonly lead: RegExp;
  private readonly leadLength: number;
  /** The gap's characters end at the first match of this (the class GAP excludes); null: never. */
  private readonly breaks: NextMatch | null;
  private readonly bound: number;
  private readonly tail: NextMatch;

  constructor(lead: RegExp, leadLength: number, gapBreak: RegExp | null, bound: number, tail: RegExp) {
    this.lead = lead;
    this.leadLength = leadLength;
    this.breaks = gapBreak ? new NextMatch(gapBreak) : null;
    this.bound = bound;
    this.tail = new NextMatch(tail);
  }

  exec(text: string, from: number): RegExpExecArray | null {
    if (from > text.length) return null;
    this.lead.lastIndex = from;
    for (let lead = this.lead.exec(text); lead !== null; lead = this.lead.exec(text)) {
      const gapStart = lead.index + this.leadLength;
      let last = gapStart + this.bound;
      const gapBreak = this.breaks?.at(text, gapStart);
      if (gapBreak && gapBreak.index < last) last = gapBreak.index;
      const tail = this.tail.at(text, gapStart);
      if (tail === null) return null; // no tail after this occurrence, nor after any later one
      if (tail.index <= last) return joined(text, lead.index, tail);
      this.lead.lastIndex = lead.index + 1;
    }
    return null;
  }
}

/** The regex's match: from the word at `start` to the tail's end, with the tail's groups. */
function joined(text: string, start: number, tail: RegExpExecArray): RegExpExecArray {
  const end = tail.index + tail[0].length;
  const match = [text.slice(start, end), ...tail.slice(1)] as unknown as RegExpExecArray;
  match.index = start;
  match.input = text;
  match.groups = tail.groups;
  const indices = [[start, end], ...tail.indices!.slice(1)] as unknown as RegExpIndicesArray;
  indices.groups = tail.indices!.groups;
  match.indices = indices;
  return match;
}
