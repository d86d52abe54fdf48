import type { ParsedScript, SyntaxNode } from "../bash-parser.ts";
import type { Verdict } from "./context.ts";
import { shorten } from "./shorten.ts";

/**
 * bash removes every backslash-newline before it reads a word — inside double quotes, in a word,
 * in an unquoted heredoc, inside `$(( ))` — but not inside single quotes, a quoted heredoc or a
 * comment. Both parsers keep the two lines apart, so `"$\⏎(cmd)"` is text to them and a command
 * substitution to bash. A backslash-newline is proven only where removing it joins nothing new:
 * after a space or tab (a line continuation between words), or where bash keeps it literally.
 */
export function joinedLines(parsed: ParsedScript): Verdict {
  const { source, root } = parsed;
  for (let at = source.indexOf("\\\n"); at >= 0; at = source.indexOf("\\\n", at + 2)) {
    let first = at;
    while (first > 0 && source[first - 1] === "\\") first--;
    // An even run of backslashes is escaped backslashes, then a plain newline.
    if ((at - first + 1) % 2 === 0) continue;
    if (keptLiterally(root, at, source)) continue;
    const before = first === 0 ? " " : (source[first - 1] as string);
    if (before === " " || before === "\t" || before === "\n") continue;
    const line = source.slice(source.lastIndexOf("\n", first - 1) + 1, first);
    return (
      `bash joins the line ending in \`${shorten(`${line}\\`)}\` with the next one, which the parse does not show ` +
      "(a backslash before a newline inside a word or quotes); break the line between words"
    );
  }
  return null;
}

/** Inside single quotes, `$'…'`, a comment or a quoted heredoc, bash keeps a backslash-newline. */
function keptLiterally(node: SyntaxNode, at: number, source: string): boolean {
  for (const child of node.children) {
    if (child.start > at || child.end <= at) continue;
    if (child.type === "raw_string" || child.type === "ansi_c_string" || child.type === "comment")
      return true;
    if (child.type === "heredoc_redirect") {
      const start = child.children.find((c) => c.type === "heredoc_start");
      if (start && /["'\\]/.test(source.slice(start.start, start.end))) return true;
    }
    return keptLiterally(child, at, source);
  }
  return false;
}
