import type { BashParser, ParsedScript, SyntaxNode } from "./bash-parser.ts";
import { firstError } from "./bash-parser.ts";
import type { Arg, RuleContext } from "./command-view.ts";
import { argsText, finding } from "./command-view.ts";
import { programInEnvironment, RISKY_ENVIRONMENT, visibleDestructiveWord } from "./dynamic-names.ts";
import { callbackCode, literalCode } from "./hidden-code.ts";
import {
  basename,
  initScriptAsService,
  isOutsideSystemBin,
  outsideSystemBinFinding,
} from "./program-path.ts";
import { mayOpenWatchdog } from "./proof/devices.ts";
import type { Stdin } from "./redirects.ts";
import { redirectFindings, stdinOf, toArg, writeTo } from "./redirects.ts";
import type { Finding, Risk, Segment } from "./risk.ts";
import { maxRisk, quoteSegment, riskRank } from "./risk.ts";
import { RULES } from "./rules/index.ts";
import { evaluateRule } from "./rules/rule.ts";
import { readsScriptFromStdin } from "./stdin-interpreters.ts";
import type { WordValue } from "./words.ts";

const MAX_DEPTH = 8;
/** `find -exec` / `xargs -I{}` replace this with each input item. */
const PLACEHOLDER = "{}";

export interface WalkEnv {
  parser: BashParser;
  targetType: string;
  /** Names of the commands that run on the target itself (not inside ssh, pct exec, docker exec …). */
  localCommands: Set<string>;
}

interface WalkState {
  source: string;
  env: WalkEnv;
  depth: number;
  /** This script runs somewhere else than the target (the inner script of `ssh host '…'`). */
  elsewhere: boolean;
  segments: Segment[];
  functions: Set<string>;
}

/** Classifies every simple command of a parsed script; one segment per simple command. */
export function walkScript(parsed: ParsedScript, env: WalkEnv, depth = 0, elsewhere = false): Segment[] {
  const state: WalkState = {
    source: parsed.source,
    env,
    depth,
    elsewhere,
    segments: [],
    functions: new Set(),
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

function text(node: SyntaxNode, state: WalkState): string {
  return state.source.slice(node.start, node.end);
}

function segmentOf(segmentText: string, findings: Finding[]): Segment {
  let risk: Risk = "read_only";
  for (const f of findings) risk = maxRisk(risk, f.risk);
  const reasons: string[] = [];
  for (const f of findings) if (f.risk === risk && !reasons.includes(f.reason)) reasons.push(f.reason);
  return { text: segmentText, risk, reasons };
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

function namedStages(pipeline: SyntaxNode): SyntaxNode[] {
  return pipeline.children.filter((child) => child.named);
}

function visitPipeline(stages: SyntaxNode[], state: WalkState): void {
  for (const stage of stages) visit(stage, state);
  checkPipeIntoInterpreter(stages, state);
}

function stageArgv(stage: SyntaxNode, state: WalkState): Arg[] | null {
  let node = stage;
  if (node.type === "redirected_statement") {
    const body = node.children.find((child) => child.field === "body");
    if (!body) return null;
    node = body;
  }
  if ((node.type === "subshell" || node.type === "compound_statement") && namedStages(node).length === 1) {
    return stageArgv(namedStages(node)[0] as SyntaxNode, state);
  }
  if (node.type !== "command") return null;
  return commandArgv(node, state);
}

function argOf(node: SyntaxNode, state: WalkState): Arg {
  return toArg(node, state.source);
}

function commandArgv(node: SyntaxNode, state: WalkState): Arg[] {
  const argv: Arg[] = [];
  for (const child of node.children) {
    if (child.field === "name" || child.field === "argument") argv.push(argOf(child, state));
  }
  return argv;
}

function visitRedirected(node: SyntaxNode, state: WalkState): void {
  const body = node.children.find((child) => child.field === "body");
  const redirects = node.children.filter(
    (child) => child.field === "redirect" || child.type.endsWith("redirect"),
  );
  if (body?.type === "command") {
    visitCommand(body, state, redirects, node);
  } else {
    if (body) visit(body, state);
    const findings = redirectFindings(redirects, state.source);
    if (findings.length > 0) state.segments.push(segmentOf(text(node, state), findings));
  }
  for (const redirect of redirects) visitRedirectChildren(redirect, body ?? null, state);
}

/** Heredoc redirects may carry the rest of the pipeline or list (`cat <<EOF | sh`), and substitutions. */
function visitRedirectChildren(redirect: SyntaxNode, body: SyntaxNode | null, state: WalkState): void {
  for (const child of redirect.children) {
    if (child.field === "destination" || child.type === "heredoc_start" || child.type === "heredoc_end") {
      visit(child, state);
      continue;
    }
    if (child.type === "pipeline" && body) {
      const stages = namedStages(child);
      const startsWithPipe = child.children[0] && !child.children[0].named;
      if (startsWithPipe) {
        // The body is the first stage; it is already classified, so only check the tail.
        for (const stage of stages) visit(stage, state);
        checkPipeIntoInterpreter([body, ...stages], state);
        continue;
      }
    }
    if (child.type === "command" && body && redirect.children.some((c) => c.type === "|")) {
      visit(child, state);
      checkPipeIntoInterpreter([body, child], state);
      continue;
    }
    visit(child, state);
  }
}

/** `curl … | sh`: a later stage that runs the program it reads on stdin makes the pipeline a reject. */
function checkPipeIntoInterpreter(stages: SyntaxNode[], state: WalkState): void {
  for (let i = 1; i < stages.length; i++) {
    const argv = stageArgv(stages[i] as SyntaxNode, state);
    if (!argv) continue;
    const interpreter = readsScriptFromStdin(argv);
    if (!interpreter) continue;
    const whole = stages.map((stage) => text(stage, state)).join(" | ");
    state.segments.push(
      segmentOf(whole, [
        finding(
          "reject",
          `${quoteSegment(whole)} pipes text into \`${interpreter}\`, so what runs cannot be checked; ` +
            "save it to a file, read it, then run the reviewed commands directly",
        ),
      ]),
    );
  }
}

function visitCommand(node: SyntaxNode, state: WalkState, redirects: SyntaxNode[], outer: SyntaxNode): void {
  const ownRedirects = node.children.filter((child) => child.field === "redirect");
  const allRedirects = [...ownRedirects, ...redirects];
  const findings: Finding[] = [];
  const argv = commandArgv(node, state);
  const assignments = node.children.filter((child) => child.type === "variable_assignment");
  for (const assignment of assignments) {
    const name = assignment.children.find((child) => child.field === "name");
    const varName = name ? text(name, state) : "";
    if (RISKY_ENVIRONMENT.has(varName) || programInEnvironment(varName, "") !== null) {
      findings.push(
        finding(
          "config_mutation",
          `${quoteSegment(text(assignment, state))} changes how the command is loaded or run (config_mutation)`,
        ),
      );
    }
    const value = assignment.children.find((child) => child.field === "value");
    if (
      (varName === "ENV" || varName === "BASH_ENV") &&
      value &&
      toArg(value, state.source).dynamic === "command"
    ) {
      findings.push(
        finding(
          "reject",
          `${quoteSegment(text(assignment, state))}: the shell runs a startup file produced at run time; run the commands directly`,
        ),
      );
    }
    const script = value ? programInEnvironment(varName, toArg(value, state.source).value) : null;
    if (script) {
      findings.push(
        ...classifyScript(
          script,
          text(assignment, state),
          toArg(value as SyntaxNode, state.source).dynamic,
          state,
          state.depth + 1,
          state.elsewhere,
        ),
      );
    }
  }
  const stdin = stdinOf(allRedirects, state.source);
  const values = assignments.flatMap((a) =>
    a.children.filter((child) => child.field === "value").map((v) => argOf(v, state)),
  );
  findings.push(
    ...callbackCode([...argv, ...values], (script) =>
      state.depth + 1 > MAX_DEPTH
        ? []
        : classifyScript(script, script, "none", state, state.depth + 1, state.elsewhere),
    ),
  );
  if (argv.length > 0) findings.push(...classifyArgv(argv, state, state.depth, stdin, state.elsewhere));
  else if (assignments.length > 0) {
    findings.push(finding("read_only", `${quoteSegment(text(node, state))} only sets shell variables`));
  }
  findings.push(...redirectFindings(allRedirects, state.source));
  state.segments.push(segmentOf(text(outer, state), findings));
  for (const child of node.children) visit(child, state);
}

function classifyArgv(
  argv: Arg[],
  state: WalkState,
  depth: number,
  stdin: Stdin | null,
  elsewhere: boolean,
): Finding[] {
  const head = argv[0];
  if (!head) return [];
  const whole = argsText(argv);
  const q = quoteSegment(whole);
  if (depth > MAX_DEPTH) return [finding("reject", `${q} nests commands more than ${MAX_DEPTH} levels deep`)];
  if (head.dynamic !== "none") {
    const verb = visibleDestructiveWord(argv);
    if (verb) {
      return [
        finding(
          "destructive",
          `${q}: the command name \`${head.raw}\` is decided at run time and \`${verb}\` is visible (destructive)`,
        ),
      ];
    }
    return [
      finding(
        "config_mutation",
        `${q}: the command name \`${head.raw}\` is decided at run time, so it cannot be proven read-only (config_mutation)`,
      ),
    ];
  }
  if (head.value === PLACEHOLDER) {
    return [
      finding(
        "reject",
        `${q}: the command name \`{}\` is filled in at run time from input oikos cannot see; run the commands directly`,
      ),
    ];
  }
  const name = basename(head.value);
  if (!elsewhere) state.env.localCommands.add(name);
  const watchdog = argv.slice(1).find((arg) => arg.dynamic === "none" && mayOpenWatchdog(arg.value));
  if (watchdog) {
    return [
      finding(
        "destructive",
        `${q} opens \`${watchdog.value}\`: the watchdog starts, and the machine reboots unless it is fed (destructive)`,
      ),
    ];
  }
  if (state.functions.has(head.value)) {
    return [
      finding("read_only", `${q} calls the shell function \`${head.value}\`, classified where it is defined`),
    ];
  }
  const asService = initScriptAsService(argv);
  if (asService) return classifyArgv(asService, state, depth + 1, stdin, elsewhere);
  const outsideSystemBin = isOutsideSystemBin(head.value);
  const pathFinding = outsideSystemBin ? [outsideSystemBinFinding(q, head.value)] : [];
  // Families named by prefix: `mkfs.<fs>`, `fsck.<fs>`.
  const rule = RULES.get(name) ?? RULES.get(name.replace(/^(mkfs|fsck)\..*$/, "$1"));
  if (!rule) {
    if (outsideSystemBin) return pathFinding;
    return [
      finding(
        "config_mutation",
        `${q}: \`${name}\` is an unknown command, so it cannot be proven read-only (config_mutation)`,
      ),
    ];
  }
  const view = { name, args: argv.slice(1), text: whole };
  const ctx: RuleContext = {
    classifyArgv: (inner, away = false) => classifyArgv(inner, state, depth + 1, stdin, elsewhere || away),
    classifyScript: (script, origin, dynamic, away = false) =>
      classifyScript(script, origin, dynamic, state, depth + 1, elsewhere || away),
    writeTo,
    stdinScript: stdin,
    targetType: state.env.targetType,
  };
  return [...pathFinding, ...evaluateRule(rule, view, ctx)];
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
    for (const reason of segment.reasons) findings.push(finding(segment.risk, reason));
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
