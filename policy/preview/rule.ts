import type { Arg } from "../command-view.ts";
import type { ProbeIdentity } from "./identity.ts";
import type { PartFacts } from "./part-facts.ts";
import type { PathQuery, Probe, ProbeResult } from "./probe.ts";
import type { Statement } from "./statement.ts";
import type { PreviewExpectation, PreviewKind } from "./types.ts";

/**
 * A preview rule: for one kind of mutating command, the read-only commands ("probes") whose output
 * shows its effect on the target, and how that output reads as the preview. Rules are data plus two
 * small functions; each carries examples that a test runs (policy/preview/rules.test.ts). A probe
 * runs only if the classifier proves it read-only, and jailed where the target can jail.
 */

export type { PathQuery, Probe, ProbeAccepts, ProbeResult } from "./probe.ts";
export { shellQuote } from "./probe.ts";

export type Rendered =
  | {
      status: "ok";
      /** Plain text shown (redacted and capped by the executor). */
      text: string;
      /** The normalised effect the fingerprint hashes: what must be equal for "same change". */
      effect: string;
      expectations: PreviewExpectation[];
      /** One line for the card when space runs out ("/etc/x: +2 −1 lines", "deletes 40 files, 1.2 MiB"). */
      summary: string;
      /** The physical paths it writes or removes, and reads (a later command acting on them depends on it). */
      touches?: Touches;
    }
  /** What the probes found makes the preview impossible (the destination is a directory …). */
  | { status: "unavailable"; reason: string };

/** What a part changes and reads, resolved: two parts on one file, or one after the other, are told apart. */
export interface Touches {
  writes: string[];
  reads: string[];
  /** device:inode of every file it writes or removes (a hard link is the same file). */
  inodes: string[];
}

export interface PlannedPart {
  ruleId: string;
  kind: PreviewKind;
  /** The statement previewed, as written. */
  command: string;
  /** Who the command acts as: a plain `sudo` runs it as root, and so look its probes. */
  identity: ProbeIdentity;
  /** Paths resolved before the probes (file edits, rm); empty for the others. */
  paths: PathQuery[];
  /** The read-only commands whose output shows the effect; with paths, chosen once they are resolved. */
  probes: Probe[] | ((facts: PartFacts) => Probe[] | { unavailable: string });
  /** Files this part shows a diff of, as written (two parts on one file cannot both be shown against "now"). */
  files: string[];
  render(results: ProbeResult[], facts: PartFacts): Rendered;
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
