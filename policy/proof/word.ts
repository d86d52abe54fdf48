import type { SyntaxNode } from "../bash-parser.ts";
import type { ProofContext, Verdict } from "./context.ts";
import { checkArithmetic, checkExpansion } from "./expansions.ts";
// A cycle by design: words hold command substitutions, whose statements prove.ts walks.
import { shorten } from "./shorten.ts";

export const WORD_TYPES = new Set([
  "word",
  "string",
  "raw_string",
  "concatenation",
  "number",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "ansi_c_string",
  "brace_expression",
  "string_content",
  "extglob_pattern",
]);

/** A word is literal text and allowed expansions; substitutions inside it must be proven too. */
export function word(node: SyntaxNode, ctx: ProofContext): Verdict {
  const raw = () => ctx.source.slice(node.start, node.end);
  switch (node.type) {
    case "word":
    case "number":
    case "string_content":
    case "extglob_pattern":
    case "variable_name":
      if (ctx.dialect === "unknown" && raw().includes("\\")) {
        return `\`${shorten(raw())}\`: backslashes are read differently by the shells a remote login may use`;
      }
      if (/(^|[^\\])\$[[({'"]/.test(raw()) && node.type !== "extglob_pattern") {
        return `\`${shorten(raw())}\` holds an expansion the parser left as text`;
      }
      return null;
    case "raw_string":
      return ctx.dialect === "unknown" && raw().includes("\\")
        ? `\`${shorten(raw())}\`: fish reads backslashes inside single quotes`
        : null;
    case "ansi_c_string":
      return ctx.dialect === "bash" ? null : `\`${shorten(raw())}\` is bash-only quoting`;
    case "brace_expression":
      return ctx.dialect === "bash" ? null : `\`${shorten(raw())}\` is brace expansion, which sh does not do`;
    case "string":
      if (ctx.source[node.start - 1] === "$" && ctx.source[node.start - 2] !== "\\") {
        return `\`$${shorten(raw())}\` is a locale-translated string, which bash expands again after translation`;
      }
      for (const child of node.children) {
        if (!child.named) continue;
        const verdict = word(child, ctx);
        if (verdict) return verdict;
      }
      return null;
    case "concatenation":
      for (const child of node.children) {
        if (!child.named) continue;
        const verdict = word(child, ctx);
        if (verdict) return verdict;
      }
      return null;
    case "simple_expansion":
    case "expansion":
      return checkExpansion(node, ctx);
    case "arithmetic_expansion": {
      // `$(( … ))`, or the old `$[ … ]` that bash still evaluates.
      const text = raw();
      return checkArithmetic(text.startsWith("$((") ? text.slice(3, -2) : text.slice(2, -1), ctx);
    }
    case "command_substitution":
      if (ctx.dialect === "unknown") return "command substitution in a remote login shell is not proven";
      if (raw().startsWith("`") && /[\\`]/.test(raw().slice(1, -1))) {
        return `\`${shorten(raw())}\`: backquotes with backslashes or nested backquotes are parsed again at run time`;
      }
      return ctx.prove.children(node, ctx);
    case "process_substitution":
      if (!raw().startsWith("<(") || ctx.dialect !== "bash")
        return `\`${shorten(raw())}\` is not a reading process substitution`;
      return ctx.prove.children(node, ctx);
    default:
      return `\`${shorten(raw())}\` is a \`${node.type}\` word, which the read-only proof does not cover`;
  }
}
