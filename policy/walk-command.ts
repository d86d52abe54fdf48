import type { SyntaxNode } from "./bash-parser.ts";
import { classifyArgv } from "./classify-argv.ts";
import type { Arg } from "./command-view.ts";
import { finding } from "./command-view.ts";
import { programInEnvironment, RISKY_ENVIRONMENT } from "./dynamic-names.ts";
import { callbackCode } from "./hidden-code.ts";
import { redirectFindings, stdinOf, toArg } from "./redirects.ts";
import type { Finding } from "./risk.ts";
import { quoteSegment } from "./risk.ts";
import type { WalkState } from "./walk-state.ts";
import { MAX_DEPTH, segmentOf, text } from "./walk-state.ts";

export function commandArgv(node: SyntaxNode, state: WalkState): Arg[] {
  const argv: Arg[] = [];
  for (const child of node.children) {
    if (child.field === "name" || child.field === "argument") argv.push(toArg(child, state.source));
  }
  return argv;
}

/**
 * One simple command: its environment assignments, the code its arguments carry (`-exec`, awk
 * programs …), its argv by the rule tables, and its redirects (its own and those of the statement
 * `outer` around it), as one segment.
 */
export function visitCommand(
  node: SyntaxNode,
  state: WalkState,
  redirects: SyntaxNode[],
  outer: SyntaxNode,
): void {
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
        ...state.classifyScript(
          script,
          text(assignment, state),
          toArg(value as SyntaxNode, state.source).dynamic,
          state.depth + 1,
          state.elsewhere,
        ),
      );
    }
  }
  const stdin = stdinOf(allRedirects, state.source);
  const values = assignments.flatMap((a) =>
    a.children.filter((child) => child.field === "value").map((v) => toArg(v, state.source)),
  );
  findings.push(
    ...callbackCode([...argv, ...values], (script) =>
      state.depth + 1 > MAX_DEPTH
        ? []
        : state.classifyScript(script, script, "none", state.depth + 1, state.elsewhere),
    ),
  );
  if (argv.length > 0) findings.push(...classifyArgv(argv, state, state.depth, stdin, state.elsewhere));
  else if (assignments.length > 0) {
    findings.push(finding("read_only", `${quoteSegment(text(node, state))} only sets shell variables`));
  }
  findings.push(...redirectFindings(allRedirects, state.source));
  state.segments.push(segmentOf(text(outer, state), findings));
  for (const child of node.children) state.visit(child);
}
