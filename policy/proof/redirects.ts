import type { SyntaxNode } from "../bash-parser.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { reachesDevice } from "./devices.ts";
import { grantWords } from "./grants.ts";
import { SHELL_READ } from "./piece.ts";
import { proofWord } from "./proof-word.ts";

type Visit = (node: SyntaxNode, ctx: ProofContext) => Verdict;

/** The shell itself reads for the command: recorded, so that a run outside the jail can refuse it. */
function shellReads(redirection: string, ctx: ProofContext): void {
  ctx.pieces.push({ name: SHELL_READ, first: redirection.split("\n")[0] ?? redirection, grants: [] });
}

/**
 * A redirection in a read-only command only reads (`< file`, heredocs, here-strings), discards
 * (`> /dev/null`) or duplicates descriptors (`2>&1`). Heredoc bodies that are not quoted expand,
 * so their expansions are words like any other; the rest of a pipeline that tree-sitter hangs
 * under a heredoc is a statement.
 */
export function checkRedirect(node: SyntaxNode, ctx: ProofContext, statement: Visit, word: Visit): Verdict {
  const text = ctx.source.slice(node.start, node.end);
  if (node.type === "herestring_redirect" || node.type === "heredoc_redirect") shellReads(text, ctx);
  if (node.type === "herestring_redirect") {
    const value = node.children.find((child) => child.named);
    return value ? word(value, ctx) : null;
  }
  if (node.type === "heredoc_redirect") {
    if (ctx.dialect === "unknown") return "a heredoc in a remote login shell is not proven";
    for (const child of node.children) {
      if (!child.named || child.type === "heredoc_start" || child.type === "heredoc_end") continue;
      const verdict =
        child.type === "heredoc_body"
          ? heredocBody(child, node, ctx, word)
          : child.type === "file_redirect"
            ? checkRedirect(child, ctx, statement, word)
            : statement(child, ctx);
      if (verdict) return verdict;
    }
    return null;
  }
  if (node.type !== "file_redirect") return `\`${text}\` is a redirection the read-only proof does not cover`;
  const operator = node.children.find((child) => !child.named)?.type ?? "";
  const destinations = node.children.filter((child) => child.field === "destination");
  const target = destinations[0];
  if (!target || destinations.length > 1) return `\`${text}\` has an unclear target`;
  const verdict = word(target, ctx);
  if (verdict) return verdict;
  const value = proofWord(target, ctx.source);
  switch (operator) {
    case "<": {
      if (!(value.static && value.value === "/dev/null")) shellReads(text, ctx);
      const device = reachesDevice(value, ctx);
      return device ? `\`${text}\`: ${device}` : grantWords([value], ctx);
    }
    case ">&":
    case "<&":
      if (value.static && /^([0-9]+-?|-)$/.test(value.value)) return null;
      if (operator === ">&" && value.static && value.value === "/dev/null") return null;
      return `\`${text}\` writes to a file`;
    case ">":
    case ">>":
    case "&>":
    case "&>>":
    case ">|":
      if (value.static && value.value === "/dev/null") return null;
      return `\`${text}\` writes or truncates a file`;
    default:
      return `\`${text}\` (\`${operator}\`) is a redirection the read-only proof does not cover`;
  }
}

function heredocBody(body: SyntaxNode, redirect: SyntaxNode, ctx: ProofContext, word: Visit): Verdict {
  const start = redirect.children.find((child) => child.type === "heredoc_start");
  const quoted = start ? /["'\\]/.test(ctx.source.slice(start.start, start.end)) : false;
  if (quoted) return null;
  if (ctx.source.slice(body.start, body.end).includes("`")) {
    return "an unquoted heredoc holds a backquote, which bash runs as a command";
  }
  for (const child of body.children) {
    if (!child.named || child.type === "heredoc_content") continue;
    const verdict = word(child, ctx);
    if (verdict) return verdict;
  }
  return null;
}
