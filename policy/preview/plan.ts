import type { Classifier } from "../classify.ts";
import { quoteSegment } from "../risk.ts";
import { mayBeSameFile } from "./file-paths.ts";
import { plainFileFacts } from "./part-facts.ts";
import type { PlannedPart, PreviewRule, RuleMatch } from "./rule.ts";
import { PREVIEW_RULES } from "./rules/index.ts";
import type { Statement } from "./statement.ts";
import { statementsOf } from "./statement.ts";

/**
 * What a preview of one command line would run: for each statement that changes state, the rule
 * that previews it and its read-only probes; the statements no rule previews, with why. Pure: the
 * classifier judges the line, each statement and every probe (a probe that is not proven read-only
 * is never planned). jobs/preview runs the plan.
 */
export interface NotPreviewed {
  command: string;
  reason: string;
  /** Which statement of the line (0-based). */
  statement: number;
}

export type PreviewPlan =
  | { status: "unavailable"; reason: string }
  | {
      status: "planned";
      /** Each part knows its statement (`statement`), in the order of the line. */
      parts: (PlannedPart & { statement: number })[];
      notPreviewed: NotPreviewed[];
    };

type Judge = Pick<Classifier, "classify" | "parse">;

/** Commands that change what the later commands of the line see (directory, variables, options). */
const CONTEXT_CHANGERS = new Set([
  "cd",
  "pushd",
  "popd",
  "source",
  ".",
  "export",
  "set",
  "shopt",
  "umask",
  "alias",
  "unset",
  "eval",
  "exec",
]);

export const NO_RULE = "no preview available for this command";

export function planPreview(judge: Judge, command: string, targetType: string): PreviewPlan {
  const whole = judge.classify(command, targetType);
  if (whole.risk === "reject") return unavailable("the command is rejected, so there is nothing to preview");
  if (whole.risk === "read_only") return unavailable("the command only reads: it changes nothing");
  const found = statementsOf(judge.parse(command));
  if (!found.ok) return unavailable(found.reason);
  const parts: (PlannedPart & { statement: number })[] = [];
  const notPreviewed: NotPreviewed[] = [];
  for (const [index, statement] of found.statements.entries()) {
    const changer = statement.stages.find((stage) => CONTEXT_CHANGERS.has(stage.name));
    if (changer) {
      return unavailable(
        `\`${changer.name}\` changes what the later commands of the line act on, so the line is not previewed`,
      );
    }
    if (judge.classify(statement.text, targetType).risk === "read_only") continue;
    const match = matchRule(statement);
    if (match === null) {
      notPreviewed.push({ command: statement.text, reason: NO_RULE, statement: index });
    } else if ("unavailable" in match) {
      notPreviewed.push({ command: statement.text, reason: match.unavailable, statement: index });
    } else {
      const unproven = unprovenProbe(judge, match.parts, targetType);
      if (unproven) notPreviewed.push({ command: statement.text, reason: unproven, statement: index });
      else parts.push(...match.parts.map((part) => ({ ...part, statement: index })));
    }
  }
  const shared = sharedFile(parts);
  if (shared) {
    return unavailable(
      `more than one command changes \`${shared}\`; each would be shown against the file as it is now, so the line is not previewed`,
    );
  }
  if (parts.length === 0) {
    const first = notPreviewed[0];
    return unavailable(
      notPreviewed.length === 1 && first
        ? first.reason
        : `${NO_RULE}: ${notPreviewed.map((n) => quoteSegment(n.command)).join(", ")}`,
    );
  }
  return { status: "planned", parts, notPreviewed };
}

/** The first rule that knows the statement, and what it says. */
export function matchRule(statement: Statement, rules: readonly PreviewRule[] = PREVIEW_RULES): RuleMatch {
  for (const rule of rules) {
    const match = rule.match(statement);
    if (match !== null) return match;
  }
  return null;
}

/**
 * A probe the proof does not accept: the ones planned up front, and the ones a part chooses once its
 * names are resolved, as they would be for plain files (judged again when they run, whatever the
 * names resolve to).
 */
function unprovenProbe(judge: Judge, parts: PlannedPart[], targetType: string): string | null {
  for (const part of parts) {
    const probes =
      typeof part.probes === "function"
        ? part.probes(plainFileFacts(part.paths.map((q) => q.word)))
        : part.probes;
    if (!Array.isArray(probes)) continue;
    for (const probe of probes) {
      const verdict = judge.classify(probe.command, targetType);
      if (verdict.risk !== "read_only") {
        return `its preview would run ${quoteSegment(probe.command)}, which is not proven read-only (${verdict.reasons[0] ?? verdict.risk}), so it is not previewed`;
      }
    }
  }
  return null;
}

function sharedFile(parts: PlannedPart[]): string | null {
  // `/etc/f` and `/etc//f`, or `f` and `./f`, are one file: compared as paths, not strings.
  const seen: string[] = [];
  for (const part of parts) {
    for (const file of part.files) {
      if (seen.some((other) => mayBeSameFile(other, file))) return file;
      seen.push(file);
    }
  }
  return null;
}

function unavailable(reason: string): PreviewPlan {
  return { status: "unavailable", reason };
}
