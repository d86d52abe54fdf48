import type { SyntaxNode } from "./bash-parser.ts";
import type { Arg } from "./command-view.ts";
import { finding } from "./command-view.ts";
import { redirectFindings } from "./redirects.ts";
import { quoteSegment } from "./risk.ts";
import { readsScriptFromStdin } from "./stdin-interpreters.ts";
import { commandArgv, visitCommand } from "./walk-command.ts";
import type { WalkState } from "./walk-state.ts";
import { segmentOf, text } from "./walk-state.ts";

export function namedStages(pipeline: SyntaxNode): SyntaxNode[] {
  return pipeline.children.filter((child) => child.named);
}

export function visitPipeline(stages: SyntaxNode[], state: WalkState): void {
  for (const stage of stages) state.visit(stage);
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

export function visitRedirected(node: SyntaxNode, state: WalkState): void {
  const body = node.children.find((child) => child.field === "body");
  const redirects = node.children.filter(
    (child) => child.field === "redirect" || child.type.endsWith("redirect"),
  );
  if (body?.type === "command") {
    visitCommand(body, state, redirects, node);
  } else {
    if (body) state.visit(body);
    const findings = redirectFindings(redirects, state.source);
    if (findings.length > 0) state.segments.push(segmentOf(text(node, state), findings));
  }
  for (const redirect of redirects) visitRedirectChildren(redirect, body ?? null, state);
}

/** Heredoc redirects may carry the rest of the pipeline or list (`cat <<EOF | sh`), and substitutions. */
function visitRedirectChildren(redirect: SyntaxNode, body: SyntaxNode | null, state: WalkState): void {
  for (const child of redirect.children) {
    if (child.field === "destination" || child.type === "heredoc_start" || child.type === "heredoc_end") {
      state.visit(child);
      continue;
    }
    if (child.type === "pipeline" && body) {
      const stages = namedStages(child);
      const startsWithPipe = child.children[0] && !child.children[0].named;
      if (startsWithPipe) {
        // The body is the first stage; it is already classified, so only check the tail.
        for (const stage of stages) state.visit(stage);
        checkPipeIntoInterpreter([body, ...stages], state);
        continue;
      }
    }
    if (child.type === "command" && body && redirect.children.some((c) => c.type === "|")) {
      state.visit(child);
      checkPipeIntoInterpreter([body, child], state);
      continue;
    }
    state.visit(child);
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
