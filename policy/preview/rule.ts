import type { Arg } from "../command-view.ts";
import type { Statement } from "./statement.ts";
import type { PreviewExpectation, PreviewKind } from "./types.ts";

/**
 * A preview rule: for one kind of mutating command, the read-only commands ("probes") whose output
 * shows its effect on the target, and how that output reads as the preview. Rules are data plus two
 * small functions; each carries examples that a test runs (policy/preview/rules.test.ts). A probe
 * runs only if the classifier proves it read-only, and jailed where the target can jail.
 */

/** Which exit statuses of a probe are answers (`test -e` says no with 1; `systemctl is-active` with 3). */
export type ProbeAccepts = "zero" | "zero_or_one" | "any";

export interface Probe {
  command: string;
  accepts: ProbeAccepts;
}

/** A probe's run, complete: not cut to the output cap, not binary (else the executor fails the part). */
export interface ProbeResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export type Rendered =
  | {
      status: "ok";
      /** Plain text shown (redacted and capped by the executor). */
      text: string;
      /** The normalised effect the fingerprint hashes: what must be equal for "same change". */
      effect: string;
      expectations: PreviewExpectation[];
    }
  /** What the probes found makes the preview impossible (the destination is a directory …). */
  | { status: "unavailable"; reason: string };

export interface PlannedPart {
  ruleId: string;
  kind: PreviewKind;
  /** The statement previewed, as written. */
  command: string;
  probes: Probe[];
  /** Files this part shows a diff of (two parts on one file cannot both be shown against "now"). */
  files: string[];
  render(results: ProbeResult[]): Rendered;
}

/** A rule's answer for one statement: not its command (null), previewable, or known but not previewable. */
export type RuleMatch = null | { parts: PlannedPart[] } | { unavailable: string };

/** What a test checks: the probe commands the rule plans, or that it declines with a reason. */
export type PreviewExample = readonly [command: string, expected: readonly string[] | "unavailable"];

export interface PreviewRule {
  id: string;
  kind: PreviewKind;
  /** Completes "previews …": "`sed -i` edits as a diff of each file". */
  what: string;
  match(statement: Statement): RuleMatch;
  examples: readonly PreviewExample[];
}

/** A word as a single-quoted shell word: probes never re-expand what the command wrote literally. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Why a word cannot be used in a probe: decided at run time, or expanded by the shell (globs, ~, braces). */
export function unusableWord(arg: Arg): string | null {
  if (arg.dynamic !== "none") return `\`${arg.raw}\` is decided at run time`;
  if (arg.raw.startsWith("~") || /[*?[{]/.test(arg.raw.replace(/'[^']*'|"[^"]*"|\\./g, ""))) {
    return `\`${arg.raw}\` is expanded by the shell`;
  }
  return null;
}

export function firstUnusable(args: readonly Arg[]): string | null {
  for (const arg of args) {
    const why = unusableWord(arg);
    if (why) return why;
  }
  return null;
}

/** A rule that knows the command but cannot preview this form. */
export function unavailable(reason: string): RuleMatch {
  return { unavailable: reason };
}

export function single(part: PlannedPart): RuleMatch {
  return { parts: [part] };
}

export function onlyStage(statement: Statement): Statement["stages"][number] | null {
  return statement.stages.length === 1 ? (statement.stages[0] ?? null) : null;
}
