import type { SyntaxNode } from "../bash-parser.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { checkScratchVariable } from "./environment.ts";
import { checkArithmetic } from "./expansions.ts";
import { shorten } from "./shorten.ts";

/** The proof's check of one word (prove.ts `word`), passed in to keep the modules acyclic. */
export type WordCheck = (node: SyntaxNode, ctx: ProofContext) => Verdict;

/**
 * `declare`/`typeset`/`export`/`readonly`/`local`/`unset` (only the printing forms and unsets of
 * scratch names are read-only) and `[ ]`/`[[ ]]` tests (no `-v`/`-R`, whose subscripts run code;
 * arithmetic operands of `-eq` … checked as arithmetic).
 */
export function declaration(node: SyntaxNode, ctx: ProofContext): Verdict {
  const text = ctx.source.slice(node.start, node.end);
  const keyword = /^\S+/.exec(text)?.[0] ?? "";
  const args = node.children.filter((child) => child.named);
  if (node.type === "unset_command") {
    for (const arg of args) {
      const name = ctx.source.slice(arg.start, arg.end);
      if (name === "-v") continue;
      const verdict = arg.type === "variable_name" || arg.type === "word" ? checkScratchVariable(name) : "x";
      if (verdict) return `\`${shorten(text)}\`: ${verdict === "x" ? "unset of a computed name" : verdict}`;
    }
    return null;
  }
  // Only the printing forms: `declare -p [names]`, `declare -f`, `export -p`, `readonly -p`.
  const printing = keyword === "declare" || keyword === "typeset" ? ["-p", "-f", "-F"] : ["-p"];
  if (keyword === "local") return "`local` assigns variables";
  const first = args[0] ? ctx.source.slice(args[0].start, args[0].end) : "";
  if (!printing.includes(first)) return `\`${shorten(text)}\` declares or exports variables`;
  for (const arg of args.slice(1)) {
    if (arg.type !== "variable_name" && arg.type !== "word") return `\`${shorten(text)}\` assigns`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(ctx.source.slice(arg.start, arg.end))) {
      return `\`${shorten(text)}\` names something other than a variable`;
    }
  }
  return null;
}

const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const SUBSCRIPT_TESTS = new Set(["-v", "-R"]);
const TEST_NODES = new Set([
  "unary_expression",
  "binary_expression",
  "parenthesized_expression",
  "test_operator",
]);

export function testCommand(node: SyntaxNode, ctx: ProofContext, word: WordCheck): Verdict {
  const doubleBracket = ctx.source.startsWith("[[", node.start);
  const visitTest = (n: SyntaxNode): Verdict => {
    if (n.type === "test_operator") {
      const op = ctx.source.slice(n.start, n.end);
      if (SUBSCRIPT_TESTS.has(op)) return `\`${op}\` evaluates a subscript, which can run code`;
      return null;
    }
    if (n.type === "binary_expression" && doubleBracket) {
      const op = n.children.find((child) => child.type === "test_operator");
      if (op && ARITHMETIC_TESTS.has(ctx.source.slice(op.start, op.end))) {
        for (const side of n.children) {
          if (side === op || !side.named) continue;
          const verdict = checkArithmetic(ctx.source.slice(side.start, side.end), ctx);
          if (verdict) return verdict;
        }
      }
    }
    if (TEST_NODES.has(n.type)) {
      for (const child of n.children) {
        if (!child.named) continue;
        const verdict = visitTest(child);
        if (verdict) return verdict;
      }
      return null;
    }
    return n.type === "regex" || n.type === "extglob_pattern" ? null : word(n, ctx);
  };
  for (const child of node.children) {
    if (!child.named) continue;
    const verdict = visitTest(child);
    if (verdict) return verdict;
  }
  return null;
}
