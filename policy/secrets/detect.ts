import { KeywordScanner } from "./keyword-scan.ts";
import { type LeadWindow, leadWindow } from "./lead-window.ts";
import type { Allowlist, Candidate, PatternRule, ScanRule, SecretRule } from "./rule.ts";

/** One secret found: which rule, and where it is in the scanned text. */
export interface Finding {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
}

type CompiledRule =
  | {
      readonly rule: PatternRule;
      readonly regex: RegExp;
      readonly hasNamedSecret: boolean;
      /** The same matches found in linear time, for a pattern shaped `\bcurl\b[\s\S]{0,1024}?…`. */
      readonly window: LeadWindow | null;
    }
  | { readonly rule: ScanRule; readonly regex: null; readonly hasNamedSecret: false };

/**
 * Runs a rule set over text. Every rule is compiled once with `g` and `d` (match indices); a rule
 * runs only when one of its keywords occurs (or it has none). Patterns must stay linear on
 * adversarial input: every rule starts at a literal or a bounded run and bounds its quantifiers
 * (policy/secrets/secrets-linear.test.ts runs pathological inputs through all of them).
 */
export class SecretDetector {
  private readonly compiled: readonly CompiledRule[];
  private readonly scanner: KeywordScanner;
  /** Per keyword index: the compiled rules it enables. */
  private readonly byKeyword: readonly (readonly CompiledRule[])[];
  private readonly always: readonly CompiledRule[];

  readonly rules: readonly SecretRule[];
  private readonly globalAllow: readonly Allowlist[];

  constructor(rules: readonly SecretRule[], globalAllow: readonly Allowlist[] = []) {
    this.rules = rules;
    this.globalAllow = globalAllow;
    const ids = new Set<string>();
    this.compiled = rules.map((rule) => {
      if (ids.has(rule.id)) throw new Error(`secret rule ${rule.id} is defined twice`);
      ids.add(rule.id);
      if ("scan" in rule) return { rule, regex: null, hasNamedSecret: false };
      const flags = [...new Set(`${rule.pattern.flags}gd`)].join("");
      const regex = new RegExp(rule.pattern.source, flags);
      const hasNamedSecret = /\(\?<secret>/.test(rule.pattern.source);
      return { rule, regex, hasNamedSecret, window: leadWindow(rule.pattern) };
    });
    this.scanner = new KeywordScanner(rules.flatMap((rule) => rule.keywords));
    const byKeyword: CompiledRule[][] = this.scanner.keywords.map(() => []);
    const always: CompiledRule[] = [];
    for (const compiled of this.compiled) {
      if (compiled.rule.keywords.length === 0) {
        always.push(compiled);
        continue;
      }
      for (const keyword of new Set(compiled.rule.keywords.map((k) => k.toLowerCase()))) {
        byKeyword[this.scanner.keywords.indexOf(keyword)]!.push(compiled);
      }
    }
    this.byKeyword = byKeyword;
    this.always = always;
  }

  /** Every secret in `text`, in no particular order; spans may overlap (see mergeSpans). */
  find(text: string): Finding[] {
    const findings: Finding[] = [];
    const toRun = new Set<CompiledRule>(this.always);
    const seen = this.scanner.found(text);
    for (let index = 0; index < seen.length; index++) {
      if (seen[index] === 1) for (const compiled of this.byKeyword[index]!) toRun.add(compiled);
    }
    // Rule order, not keyword order: the report and tests see a stable sequence.
    for (const compiled of this.compiled) {
      if (toRun.has(compiled)) this.runRule(compiled, text, findings);
    }
    return findings;
  }

  private runRule(compiled: CompiledRule, text: string, findings: Finding[]): void {
    if (compiled.regex === null) {
      for (const [start, end] of compiled.rule.scan(text)) {
        const secret = text.slice(start, end);
        if (!this.globalAllow.some((list) => list.regexes?.some((regex) => regex.test(secret)))) {
          findings.push({ rule: compiled.rule.id, start, end });
        }
      }
      return;
    }
    const { rule, regex, window } = compiled;
    // `from` is the regex's lastIndex: where the next search starts.
    let from = 0;
    for (;;) {
      let match: RegExpExecArray | null;
      if (window) match = window.exec(text, from);
      else {
        regex.lastIndex = from;
        match = regex.exec(text);
      }
      if (match === null) return;
      from = match.index + Math.max(match[0].length, 1);
      const span = secretSpan(compiled, match);
      if (!span) {
        from = match.index + 1;
        continue;
      }
      const candidate: Candidate = {
        text,
        match,
        secret: text.slice(span[0], span[1]),
        start: span[0],
        end: span[1],
      };
      if (!this.isSecret(rule, candidate)) {
        // A rejected candidate must not hide a secret inside it (`otpauth://…?secret=X` is one
        // `key: value` whose value holds another): look again from where its secret began.
        if (span[0] > match.index) from = span[0];
        continue;
      }
      findings.push({ rule: rule.id, start: span[0], end: span[1] });
    }
  }

  private isSecret(rule: PatternRule, candidate: Candidate): boolean {
    if (rule.entropy !== undefined && shannonEntropy(candidate.secret) <= rule.entropy) return false;
    for (const list of this.globalAllow) if (allowed(list, candidate)) return false;
    for (const list of rule.allow ?? []) if (allowed(list, candidate)) return false;
    return rule.accept ? rule.accept(candidate) : true;
  }
}

/** The secret's [start, end) in the text, whitespace trimmed; null when empty. */
function secretSpan(
  compiled: CompiledRule & { rule: PatternRule },
  match: RegExpExecArray,
): [number, number] | null {
  const indices = match.indices!;
  let span: [number, number] | undefined;
  if (compiled.hasNamedSecret) span = indices.groups?.secret ?? indices[0];
  else if (compiled.rule.secretGroup !== undefined) span = indices[compiled.rule.secretGroup];
  else if (indices.length > 1) {
    for (let group = 1; group < indices.length; group++) {
      const at = indices[group];
      if (at && at[1] > at[0]) {
        span = at;
        break;
      }
    }
  } else span = indices[0];
  if (!span) return null;
  let [start, end] = span;
  const text = match.input;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return end > start ? [start, end] : null;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function allowed(list: Allowlist, candidate: Candidate): boolean {
  if (list.regexes && list.regexes.length > 0) {
    const subject =
      list.target === "match"
        ? matchWithKeyName(candidate)
        : list.target === "line"
          ? lineOf(candidate)
          : candidate.secret;
    if (list.regexes.some((regex) => regex.test(subject))) return true;
  }
  if (list.stopwords && list.stopwords.length > 0) {
    if (stopwordScanner(list.stopwords).occursIn(candidate.secret)) return true;
  }
  return false;
}

/** gitleaks' generic rule has ~1,450 stopwords: one Aho-Corasick pass per candidate, not 1,450 searches. */
const stopwordScanners = new WeakMap<readonly string[], KeywordScanner>();
function stopwordScanner(words: readonly string[]): KeywordScanner {
  let scanner = stopwordScanners.get(words);
  if (!scanner) {
    scanner = new KeywordScanner(words);
    stopwordScanners.set(words, scanner);
  }
  return scanner;
}

/** The line holding the candidate's match (at most 1 KiB each side). */
function lineOf({ text, match }: Candidate): string {
  const from = Math.max(text.lastIndexOf("\n", match.index) + 1, match.index - 1024);
  let to = text.indexOf("\n", match.index + match[0].length);
  if (to < 0 || to > match.index + match[0].length + 1024)
    to = Math.min(text.length, match.index + match[0].length + 1024);
  return text.slice(from, to);
}

/**
 * gitleaks' "key = value" rules start with `[\w.-]{0,50}?` so that their match (which their
 * match-targeted allowlists test) includes the key name. Our copies drop that prefix for speed; this
 * puts the same up-to-50 characters back in front of the match.
 */
function matchWithKeyName({ text, match }: Candidate): string {
  let from = match.index;
  while (from > 0 && match.index - from < 50 && /[\w.-]/.test(text[from - 1]!)) from--;
  return text.slice(from, match.index) + match[0];
}

/** Bits per character of the string's own character distribution (gitleaks' measure). */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  // Secrets are ASCII: counted in an array, summed in the order characters first occur, which is the
  // Map's order below, so the result is the same to the last bit (the Map is for other strings).
  const counts = new Uint32Array(128);
  const order: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128) return shannonEntropyOfCodePoints(value);
    if (counts[code] === 0) order.push(code);
    counts[code]!++;
  }
  let entropy = 0;
  const length = value.length;
  for (const code of order) {
    const p = counts[code]! / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function shannonEntropyOfCodePoints(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  const length = [...value].length;
  for (const count of counts.values()) {
    const p = count / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/** Sorted, non-overlapping spans covering every finding. */
export function mergeSpans(findings: readonly Finding[]): [number, number][] {
  const sorted = [...findings].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: [number, number][] = [];
  for (const { start, end } of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
