import type { ParsedScript, SyntaxNode } from "../bash-parser.ts";
import type { JailGrant } from "../jail-grant.ts";
import type { RunsElsewhere } from "../runs-elsewhere.ts";
import { proveArgv } from "./argv.ts";
import type { Dialect, ProofContext, Prover, StdinSource, Verdict } from "./context.ts";
import { MAX_PROOF_DEPTH } from "./context.ts";
import { joinedLines } from "./continuations.ts";
import { declaration, testCommand } from "./declarations.ts";
import { reachesDevice } from "./devices.ts";
import { checkEnvironmentAssignment, checkScratchVariable } from "./environment.ts";
import type { Piece } from "./piece.ts";
import { proofWord } from "./proof-word.ts";
import { checkRedirect } from "./redirects.ts";
import { shorten } from "./shorten.ts";
import { stdinFromRedirects } from "./stdin.ts";
import { fixedNames, numericNames, taintedNames } from "./taint.ts";
import { cutByNextStage } from "./unbounded.ts";
import { WORD_TYPES, word } from "./word.ts";

/**
 * The read-only proof: a command is read-only only when every node of its parse is a kind this
 * walker understands, every word is literal or an allowed expansion, every command is a builtin
 * of the closed read-only set or a tool whose every option is on its allowlist (wrappers seen
 * through), every redirection only reads or discards, and every environment assignment is on the
 * list. Anything else is "not proven", with the first reason found.
 */
export function proveScript(
  parsed: ParsedScript,
  dialect: Dialect,
  parse: (script: string) => ParsedScript,
  depth = 0,
  named: Set<string> = new Set(),
  stdin?: readonly StdinSource[],
  reboots: string[] = [],
  grants: JailGrant[] = [],
  pieces: Piece[] = [],
  elsewhere: RunsElsewhere[] = [],
): Verdict {
  if (parsed.hasError) return "it does not parse as bash";
  if (parsed.rejection) return parsed.rejection;
  if (depth > MAX_PROOF_DEPTH) return `it nests shells more than ${MAX_PROOF_DEPTH} levels deep`;
  const unbounded = joinedLines(parsed) ?? inBackground(parsed.root, parsed.source);
  if (unbounded) return unbounded;
  const ctx: ProofContext = {
    prove: PROVER,
    source: parsed.source,
    dialect,
    tainted: taintedNames(parsed.root, parsed.source),
    fixed: fixedNames(parsed.root, parsed.source),
    numeric: numericNames(parsed.root, parsed.source),
    parse,
    depth,
    named,
    reboots,
    grants,
    pieces,
    elsewhere,
    ...(stdin ? { stdin } : {}),
  };
  const before = pieces.length;
  const verdict = statement(parsed.root, ctx);
  if (pieces.length > before) {
    // one walk of the tree, and only when the script ran a command
    const types = nodeTypes(parsed.root);
    for (const piece of pieces.slice(before)) {
      if (types.has("while_statement")) piece.repeats = true;
      if (types.has("brace_expression")) piece.braceRange = true;
      if (types.has("test_command")) piece.shellTest = true;
    }
  }
  return verdict;
}

/**
 * The node types a script holds; of interest: `while_statement` (`while` and `until`, the only
 * loops the proof lets run an unbounded number of times), `brace_expression` (`{1..N}`),
 * `test_command` (`[[ … ]]`, `[ … ]` as syntax).
 */
function nodeTypes(node: SyntaxNode, into: Set<string> = new Set()): Set<string> {
  into.add(node.type);
  for (const child of node.children) nodeTypes(child, into);
  return into;
}

/** Proves shell text that a wrapper runs (`bash -c '…'`, `ssh host '…'`). */
export function proveNestedScript(script: string, dialect: Dialect, ctx: ProofContext): Verdict {
  if (script.trim() === "") return null;
  return proveScript(
    ctx.parse(script),
    dialect,
    ctx.parse,
    ctx.depth + 1,
    ctx.named,
    ctx.stdin,
    ctx.reboots,
    ctx.grants,
    ctx.pieces,
    ctx.elsewhere,
  );
}

const ALWAYS = new Set(["program", "list", "pipeline", "do_group", "else_clause", "elif_clause", "comment"]);
const BASH_ONLY_STATEMENTS = new Set(["test_command", "case_statement", "subshell", "compound_statement"]);

function statement(node: SyntaxNode, ctx: ProofContext): Verdict {
  const text = () => ctx.source.slice(node.start, node.end);
  if (
    ctx.dialect === "unknown" &&
    !["program", "list", "pipeline", "command", "comment"].includes(node.type)
  ) {
    return `\`${shorten(text())}\` is syntax a remote login shell (dash, zsh, fish …) may read differently`;
  }
  if (ctx.dialect === "posix" && node.type === "test_command" && text().startsWith("[[")) {
    return "`[[ … ]]` is bash syntax, and this text runs under sh";
  }
  if (node.type === "pipeline") return pipeline(node, ctx);
  if (ALWAYS.has(node.type)) return children(node, ctx);
  switch (node.type) {
    case "command":
      return command(node, [], ctx);
    case "redirected_statement":
      return redirected(node, ctx);
    case "subshell":
    case "negated_command":
    case "if_statement":
    case "while_statement":
      return children(node, ctx);
    case "compound_statement":
      if (!text().startsWith("{")) return `\`${shorten(text())}\` is an arithmetic command`;
      return children(node, ctx);
    case "for_statement":
      return forStatement(node, ctx);
    case "case_statement":
    case "case_item":
      return caseParts(node, ctx);
    case "test_command":
      return testCommand(node, ctx, word);
    case "variable_assignment":
      return assignment(node, ctx, false);
    case "file_redirect":
      // `$(< file)` and a bare `< file`: bash opens the file and runs nothing.
      return checkRedirect(node, ctx, statement, word);
    case "variable_assignments":
      for (const child of node.children) {
        const verdict = child.named ? assignment(child, ctx, false) : null;
        if (verdict) return verdict;
      }
      return null;
    case "declaration_command":
    case "unset_command":
      return declaration(node, ctx);
    default:
      if (BASH_ONLY_STATEMENTS.has(node.type)) return children(node, ctx);
      return `\`${shorten(text())}\` is a \`${node.type}\`, which the read-only proof does not cover`;
  }
}

/** Each command after the first reads the one before it (and whatever the pipeline's redirections give). */
function pipeline(node: SyntaxNode, ctx: ProofContext): Verdict {
  let producer: SyntaxNode | undefined;
  const stages = node.children.filter((child) => child.named);
  for (const [k, child] of stages.entries()) {
    const input: StdinSource[] = producer
      ? [{ kind: "pipe", producer }, ...(ctx.stdin ?? [])]
      : [...(ctx.stdin ?? [])];
    const outputCut = cutByNextStage(stages[k + 1], ctx.source);
    const verdict = statementOrWord(child, { ...ctx, stdin: input, outputCut });
    if (verdict) return verdict;
    producer = child;
  }
  return null;
}

export function children(node: SyntaxNode, ctx: ProofContext): Verdict {
  for (const child of node.children) {
    if (!child.named) continue;
    const verdict = statementOrWord(child, ctx);
    if (verdict) return verdict;
  }
  return null;
}

/** Children of compound statements are statements, except the few word positions below. */
function statementOrWord(node: SyntaxNode, ctx: ProofContext): Verdict {
  if (node.field === "condition" && node.type !== "command" && !STATEMENT_TYPES.has(node.type)) {
    return word(node, ctx);
  }
  return statement(node, ctx);
}

const STATEMENT_TYPES = new Set([
  "list",
  "pipeline",
  "redirected_statement",
  "subshell",
  "compound_statement",
  "test_command",
  "negated_command",
  "if_statement",
  "while_statement",
  "for_statement",
  "case_statement",
  "variable_assignment",
]);

function forStatement(node: SyntaxNode, ctx: ProofContext): Verdict {
  if (!ctx.source.startsWith("for", node.start)) return "only `for name in words` loops are proven";
  for (const child of node.children) {
    if (child.field === "variable") {
      const verdict = checkScratchVariable(ctx.source.slice(child.start, child.end));
      if (verdict) return verdict;
    } else if (child.field === "value") {
      const verdict = word(child, ctx) ?? reachesDevice(proofWord(child, ctx.source), ctx);
      if (verdict) return verdict;
    } else if (child.named) {
      const verdict = statement(child, ctx);
      if (verdict) return verdict;
    }
  }
  return null;
}

/**
 * `cmd &` runs on after the command returns, outside its time limit and output; in a loop it forks
 * without end. Neither is a read (nohup, setsid, disown and coproc are outside the proof too).
 */
function inBackground(node: SyntaxNode, source: string): Verdict {
  for (const child of node.children) {
    if (!child.named && child.type === "&")
      return `\`${shorten(source.slice(node.start, node.end))}\` runs a command in the background (\`&\`), which outlives the command and its limits; run it in the foreground`;
    const verdict = inBackground(child, source);
    if (verdict) return verdict;
  }
  return null;
}

function caseParts(node: SyntaxNode, ctx: ProofContext): Verdict {
  for (const child of node.children) {
    if (!child.named) continue;
    const verdict =
      child.field === "value" || child.type === "extglob_pattern" || child.field === "termination"
        ? word(child, ctx)
        : child.type === "case_item"
          ? caseParts(child, ctx)
          : statementOrWordInCase(child, ctx);
    if (verdict) return verdict;
  }
  return null;
}

function statementOrWordInCase(node: SyntaxNode, ctx: ProofContext): Verdict {
  return WORD_TYPES.has(node.type) ? word(node, ctx) : statement(node, ctx);
}

function redirected(node: SyntaxNode, ctx: ProofContext): Verdict {
  const body = node.children.find((child) => child.field === "body");
  const redirects = node.children.filter((child) => child !== body && child.named);
  for (const redirect of redirects) {
    // A pipeline tree-sitter hangs under a heredoc reads the redirected command's output.
    const hanging =
      redirect.type === "heredoc_redirect" && body
        ? { ...ctx, stdin: [{ kind: "pipe", producer: body } as const] }
        : ctx;
    const verdict = checkRedirect(redirect, hanging, statement, word);
    if (verdict) return verdict;
  }
  if (!body) return null;
  const inner = withStdin(ctx, stdinFromRedirects(redirects, ctx.source));
  return body.type === "command" ? command(body, redirects, inner) : statement(body, inner);
}

function withStdin(ctx: ProofContext, sources: readonly StdinSource[]): ProofContext {
  return sources.length === 0 ? ctx : { ...ctx, stdin: [...sources, ...(ctx.stdin ?? [])] };
}

/**
 * One simple command is one piece: what it names for the jail goes to a list of its own (a command
 * substitution in its words is a piece of its own too), so the classifier can see who needs what.
 */
function command(node: SyntaxNode, redirects: SyntaxNode[], outer: ProofContext): Verdict {
  const own: JailGrant[] = [];
  const words = { options: [], operands: [] };
  const verdict = simpleCommand(node, redirects, { ...outer, grants: own, words });
  const head = node.children.find((child) => child.field === "name");
  const first = node.children.find((child) => child.field === "argument");
  const name = head ? outer.source.slice(head.start, head.end) : "";
  if (head)
    outer.pieces.push({
      name: name.slice(name.lastIndexOf("/") + 1),
      first: first ? outer.source.slice(first.start, first.end) : "",
      grants: own,
      words,
    });
  else outer.grants.push(...own);
  return verdict;
}

function simpleCommand(node: SyntaxNode, _outerRedirects: SyntaxNode[], outer: ProofContext): Verdict {
  const words: SyntaxNode[] = [];
  const assignments: SyntaxNode[] = [];
  const redirects: SyntaxNode[] = [];
  for (const child of node.children) {
    if (child.field === "name" || child.field === "argument") words.push(child);
    else if (child.type === "variable_assignment") assignments.push(child);
    else if (child.field === "redirect") {
      redirects.push(child);
      const verdict = checkRedirect(child, outer, statement, word);
      if (verdict) return verdict;
    } else if (child.named) {
      return `\`${shorten(outer.source.slice(child.start, child.end))}\` is a \`${child.type}\` inside a command`;
    }
  }
  const ctx = withStdin(outer, stdinFromRedirects(redirects, outer.source));
  for (const assignmentNode of assignments) {
    const verdict = assignment(assignmentNode, ctx, words.length > 0);
    if (verdict) return verdict;
  }
  for (const wordNode of words) {
    const verdict = word(
      wordNode.type === "command_name" ? (wordNode.children[0] ?? wordNode) : wordNode,
      ctx,
    );
    if (verdict) return verdict;
  }
  if (words.length === 0) return null;
  const argv = words.map((w) =>
    proofWord(w.type === "command_name" ? (w.children[0] ?? w) : w, ctx.source, ctx.tainted, ctx.fixed),
  );
  return proveArgv(argv, ctx);
}

function assignment(node: SyntaxNode, ctx: ProofContext, forCommand: boolean): Verdict {
  const text = ctx.source.slice(node.start, node.end);
  const nameNode = node.children.find((child) => child.field === "name");
  const value = node.children.find((child) => child.field === "value");
  const beforeValue = text.slice(0, Math.max(0, text.indexOf("=")));
  if (nameNode?.type !== "variable_name" || beforeValue.endsWith("+") || beforeValue.includes("[")) {
    return `\`${shorten(text)}\` assigns an array element or appends`;
  }
  const name = ctx.source.slice(nameNode.start, nameNode.end);
  if (value) {
    if (value.type === "array") return `\`${shorten(text)}\` assigns an array`;
    const verdict = word(value, ctx) ?? reachesDevice(proofWord(value, ctx.source), ctx);
    if (verdict) return verdict;
  }
  if (forCommand) {
    const literal = value ? proofWord(value, ctx.source) : null;
    return checkEnvironmentAssignment(name, literal?.static ? literal.value : value ? null : "");
  }
  return checkScratchVariable(name);
}

/** The one entry point of the proof's recursion (context.ts `Prover`). */
const PROVER: Prover = { argv: proveArgv, script: proveNestedScript, children };
