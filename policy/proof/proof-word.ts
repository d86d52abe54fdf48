import type { SyntaxNode } from "../bash-parser.ts";
import { wordValue } from "../words.ts";

/**
 * A word of a command as the read-only proof sees it. `value` is the text after quote removal
 * when the word is static; a word that expands at run time (`$x`, `$(…)`, a glob that could match
 * `-rf`) may become any option, so only tools that accept every option may take it.
 */
export interface ProofWord {
  value: string;
  raw: string;
  /** No expansion at all: what bash passes is `value`. */
  static: boolean;
  /** At run time this word could start with `-` or split into several words. */
  mayBeOption: boolean;
  /**
   * At run time this word may become any number of words (none, one, many): an unquoted glob
   * matches every file name it fits, sorted; brace expansion makes several; an unquoted expansion
   * of text the command does not fix splits on spaces. A tool that counts its operands or takes an
   * option's value from the next word reads those words differently (`uniq -- d/*`: the second
   * match is uniq's output file; `find d -name *`: a file named `-delete` becomes an action).
   */
  manyWords?: boolean;
  /** Not static, but every expansion is a variable the command assigns only fixed text. */
  fixedText?: boolean;
  node: SyntaxNode;
}

const GLOB_OR_BRACE = /[*?[{]/;
const NAME = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/**
 * `tainted`: variables the command itself assigns from text it does not fix. Any other variable
 * holds the target's own environment (`$HOME`, `$UNIT` set by the operator's profile), which the
 * command cannot choose, so a word made only of such references is not an attacker's option.
 */
export function proofWord(
  node: SyntaxNode,
  source: string,
  tainted?: ReadonlySet<string>,
  fixed?: ReadonlySet<string>,
): ProofWord {
  const value = wordValue(node, source);
  const raw = source.slice(node.start, node.end);
  const isStatic = value.dynamic === "none";
  if (isStatic) {
    if (hasBraceExpansion(node, source)) {
      // `{/tmp,-delete}` is two words at run time, `/d{e,}v/x` another path: only the text in front
      // of the first brace is common to every word bash makes of it.
      const mayBeOption = !/^[A-Za-z0-9_/.~+:@%=]/.test(value.text);
      return { value: value.text, raw, static: false, mayBeOption, manyWords: true, node };
    }
    const unquotedGlob = hasUnquotedGlob(node, source);
    // `/srv/*` only expands to words starting with `/`; `*.log` or `{-o,x}` could start with `-`.
    const first = value.text[0] ?? "";
    const mayBeOption = unquotedGlob ? first === "-" || GLOB_OR_BRACE.test(first) || first === "" : false;
    return { value: value.text, raw, static: !unquotedGlob, mayBeOption, manyWords: unquotedGlob, node };
  }
  const fixedText = fixed !== undefined && onlyReferences(node, source, (name) => fixed.has(name));
  if (tainted && onlyReferences(node, source, (name) => !tainted.has(name))) {
    return { value: value.text, raw, static: false, mayBeOption: false, node, fixedText };
  }
  // A quoted word starting with literal text cannot be an option, nor split.
  const quoted = node.type === "string" || node.type === "raw_string";
  const prefix = literalPrefix(node, source);
  const mayBeOption = !quoted || prefix === "" || prefix.startsWith("-");
  const manyWords = hasUnquotedGlob(node, source) || hasUnquotedExpansion(node);
  return { value: value.text, raw, static: false, mayBeOption, manyWords, node, fixedText };
}

/** Every expansion in the word is a plain reference to a variable the test accepts. */
function onlyReferences(node: SyntaxNode, source: string, accept: (name: string) => boolean): boolean {
  if (node.type === "simple_expansion" || node.type === "expansion") {
    const name = NAME.exec(source.slice(node.start, node.end))?.[1];
    return name !== undefined && accept(name);
  }
  if (node.type === "string" || node.type === "concatenation") {
    const parts = node.children.filter((child) => child.named);
    return (
      parts.length > 0 &&
      parts.every(
        (part) =>
          part.type === "string_content" || part.type === "word" || onlyReferences(part, source, accept),
      )
    );
  }
  return false;
}

/** An expansion outside quotes: bash splits its result on spaces and expands globs in it. */
function hasUnquotedExpansion(node: SyntaxNode): boolean {
  if (/^(simple_expansion|expansion|command_substitution|arithmetic_expansion)$/.test(node.type)) return true;
  if (node.type === "concatenation") return node.children.some(hasUnquotedExpansion);
  return false;
}

function hasUnquotedGlob(node: SyntaxNode, source: string): boolean {
  if (node.type === "word") return /(^|[^\\])[*?[]/.test(source.slice(node.start, node.end));
  if (node.type === "brace_expression") return true;
  if (node.type === "concatenation") return node.children.some((child) => hasUnquotedGlob(child, source));
  return false;
}

/**
 * Whether bash brace-expands the word: an unquoted `{…}` holding an unquoted `,` or `..`, within
 * one word or across the parts of a concatenation (`{"a",-b}`). Quoted parts and escaped
 * characters are masked, so `"{a,b}"` and `\{a,b}` stay literal, as in bash.
 */
export function hasBraceExpansion(node: SyntaxNode, source: string): boolean {
  if (node.type === "brace_expression") return true;
  return /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquotedText(node, source));
}

function unquotedText(node: SyntaxNode, source: string): string {
  if (node.type === "word") return source.slice(node.start, node.end).replace(/\\[\s\S]/g, "__");
  if (node.type === "concatenation")
    return node.children.map((child) => unquotedText(child, source)).join("");
  if (!node.named && /^[{},]$/.test(source.slice(node.start, node.end)))
    return source.slice(node.start, node.end);
  return "_";
}

/** The literal text a quoted word starts with, before its first expansion (`"/proc/$x"` → `/proc/`). */
function literalPrefix(node: SyntaxNode, source: string): string {
  const first = node.children.find((child) => child.named);
  if (!first) return "";
  if (first.type === "string_content" && first.start === node.start + 1) {
    return source.slice(first.start, first.end);
  }
  return "";
}
