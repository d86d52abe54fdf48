/**
 * One secret detector, as data. The shape follows gitleaks' rule format (id, keywords, regex, secret
 * group, entropy, allowlists) so its maintained rule set can be carried over as it is; oikos' own
 * homelab rules add an `accept` check where a pattern alone cannot decide (a key name, a context).
 */
export type SecretRule = PatternRule | ScanRule;

interface RuleBase {
  /** Stable name, printed by `oikos redact --report`. */
  readonly id: string;
  /** Lower-case literals: the rule runs only on text containing one of them. Empty: it always runs. */
  readonly keywords: readonly string[];
}

export interface PatternRule extends RuleBase {
  /** Other flags are kept; the detector compiles it with `g` and `d` added. */
  readonly pattern: RegExp;
  /**
   * Which capture is the secret: the named group `secret` if the pattern has one, else this group
   * number, else the first non-empty group, else the whole match (gitleaks' rule). Only the secret is
   * replaced, so the key name or header in front of it stays readable.
   */
  readonly secretGroup?: number;
  /** The secret's Shannon entropy must exceed this (gitleaks' `entropy`): filters low-entropy look-alikes. */
  readonly entropy?: number;
  /** Candidates that are not secrets: any allowlist that matches drops the candidate. */
  readonly allow?: readonly Allowlist[];
  /** A further decision with the text around the candidate in view (a key name, a document kind). */
  readonly accept?: (candidate: Candidate) => boolean;
}

/** A rule that reads the text itself (the hot `key = value` scanner) and yields the secrets' spans. */
export interface ScanRule extends RuleBase {
  readonly scan: (text: string) => Iterable<readonly [number, number]>;
}

export interface Allowlist {
  /** What the regexes test: the secret (default), the whole match, or the line it is on. */
  readonly target?: "secret" | "match" | "line";
  readonly regexes?: readonly RegExp[];
  /** Lower-case words; a secret containing one is not a secret. */
  readonly stopwords?: readonly string[];
}

export interface Candidate {
  /** The whole text being scanned. */
  readonly text: string;
  readonly match: RegExpExecArray;
  readonly secret: string;
  /** Where the secret is in `text`. */
  readonly start: number;
  readonly end: number;
}

/** A rule of ours carries examples: texts whose `secret` must disappear, and texts that must stay. */
export type HomelabRule = SecretRule & {
  readonly examples: readonly { readonly text: string; readonly secret: string }[];
  readonly keeps?: readonly string[];
};
