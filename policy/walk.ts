import type { ParsedScript, SyntaxNode } from "./bash-parser.ts";
import { firstError } from "./bash-parser.ts";
import { finding } from "./command-view.ts";
import { literalCode } from "./hidden-code.ts";
import type { Finding, Risk, Segment } from "./risk.ts";
import { quoteSegment, riskRank } from "./risk.ts";
import { visitCommand } from "./walk-command.ts";
import { namedStages, visitPipeline, visitRedirected } from "./walk-pipeline.ts";
import type { WalkEnv, WalkState } from "./walk-state.ts";
import { MAX_DEPTH, PLACEHOLDER, segmentOf, text } from "./walk-state.ts";
import type { WordValue } from "./words.ts";

export type { WalkEnv } from "./walk-state.ts";

/** Classifies every simple command of a parsed script; one segment per simple command. */
export function walkScript(parsed: ParsedScript, env: WalkEnv, depth = 0, elsewhere = false): Segment[] {
  const state: WalkState = {
    source: parsed.source,
    env,
    depth,
    elsewhere,
    segments: [],
    functions: new Set(),
    visit: (node) => visit(node, state),
    classifyScript: (script, origin, dynamic, innerDepth, innerElsewhere) =>
      classifyScript(script, origin, dynamic, state, innerDepth, innerElsewhere),
  };
  if (parsed.hasError) {
    state.segments.push(segmentOf(parsed.source, [finding("reject", describeParseError(parsed))]));
  } else if (parsed.rejection) {
    state.segments.push(segmentOf(parsed.source, [finding("reject", parsed.rejection)]));
  }
  visit(parsed.root, state);
  const nested = (script: string) =>
    state.depth + 1 > MAX_DEPTH
      ? []
      : classifyScript(script, script, "none", state, state.depth + 1, state.elsewhere);
  for (const [at, findings] of literalCode(parsed.root, state.source, nested)) {
    state.segments.push(segmentOf(quoteSegment(at), findings));
  }
  return state.segments;
}

export function describeParseError(parsed: ParsedScript): string {
  const bad = firstError(parsed.root);
  if (!bad) return `${quoteSegment(parsed.source)} cannot be parsed as bash`;
  if (bad.missing) {
    const before = parsed.source.slice(Math.max(0, bad.start - 40), bad.start);
    return `${quoteSegment(parsed.source)} cannot be parsed: \`${bad.type}\` is missing after \`${before.trim()}\``;
  }
  const text = parsed.source.slice(bad.start, bad.end);
  return `${quoteSegment(parsed.source)} cannot be parsed as bash near \`${text.trim().slice(0, 60)}\``;
}

function visit(node: SyntaxNode, state: WalkState): void {
  switch (node.type) {
    case "command":
      visitCommand(node, state, [], node);
      return;
    case "redirected_statement":
      visitRedirected(node, state);
      return;
    case "pipeline":
      visitPipeline(namedStages(node), state);
      return;
    case "function_definition": {
      const name = node.children.find((child) => child.field === "name");
      if (name) state.functions.add(text(name, state));
      for (const child of node.children) if (child.field !== "name") visit(child, state);
      return;
    }
    case "declaration_command":
    case "unset_command":
    case "test_command":
      state.segments.push(
        segmentOf(text(node, state), [
          finding("read_only", `${quoteSegment(text(node, state))} only sets or tests shell variables`),
        ]),
      );
      for (const child of node.children) visit(child, state);
      return;
    default:
      for (const child of node.children) visit(child, state);
  }
}

function classifyScript(
  script: string,
  origin: string,
  dynamic: WordValue["dynamic"],
  state: WalkState,
  depth: number,
  elsewhere: boolean,
): Finding[] {
  const q = quoteSegment(origin);
  if (depth > MAX_DEPTH) return [finding("reject", `${q} nests scripts more than ${MAX_DEPTH} levels deep`)];
  if (dynamic === "command") {
    return [
      finding(
        "reject",
        `${q} runs text produced at run time by a command substitution as code; run the inner commands directly`,
      ),
    ];
  }
  if (script.trim() === PLACEHOLDER) {
    return [
      finding(
        "reject",
        `${q} runs \`{}\` as a script, filled in at run time from input oikos cannot see; run the commands directly`,
      ),
    ];
  }
  if (script.trim() === "") return [finding("read_only", `${q} runs an empty script`)];
  const parsed = state.env.parser.parse(script);
  const segments = walkScript(parsed, state.env, depth, elsewhere);
  const findings: Finding[] = [];
  for (const segment of segments)
    for (const reason of segment.reasons)
      findings.push({
        ...finding(segment.risk, reason),
        ...(segment.unreadable ? { unreadable: segment.unreadable } : {}),
      });
  if (dynamic === "variable") {
    findings.push(
      finding(
        "config_mutation",
        `${q} expands variables into code before running it, so it cannot be proven read-only`,
      ),
    );
  }
  if (findings.length === 0) findings.push(finding("read_only", `${q} runs nothing`));
  return findings;
}

export function worstOf(segments: Segment[]): Risk {
  let risk: Risk = "read_only";
  for (const segment of segments) if (riskRank(segment.risk) > riskRank(risk)) risk = segment.risk;
  return risk;
}
