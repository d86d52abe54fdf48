import type { ParsedScript, SyntaxNode } from "./bash-parser.ts";
import { firstError } from "./bash-parser.ts";
import { quoteSegment } from "./risk.ts";

/** Commands larger than this are refused: put long scripts in a reviewed file instead. */
export const MAX_COMMAND_BYTES = 16 * 1024;

export type LintCode =
  | "nul_byte"
  | "too_long"
  | "empty"
  | "parse_error"
  | "unbalanced_quote"
  | "trailing_backslash"
  | "literal_newline_escape"
  | "spaced_flag";

export interface LintProblem {
  code: LintCode;
  message: string;
}

export type LintResult = { ok: true } | { ok: false; problems: LintProblem[] };

/**
 * Checks a command before classification. Each message names the offending text and says
 * how to write it instead. `parse` is the loaded bash parser (see `loadClassifier`).
 */
export function lintParsed(command: string, parse: (source: string) => ParsedScript): LintResult {
  const problems: LintProblem[] = [];
  if (command.includes("\0")) {
    problems.push({ code: "nul_byte", message: "the command contains a NUL byte; remove it" });
    return { ok: false, problems };
  }
  const bytes = Buffer.byteLength(command);
  if (bytes > MAX_COMMAND_BYTES) {
    problems.push({
      code: "too_long",
      message: `the command is ${bytes} bytes, over the ${MAX_COMMAND_BYTES}-byte limit; split it into smaller commands`,
    });
    return { ok: false, problems };
  }
  if (command.trim() === "" || /^[\s;&|]*$/.test(command)) {
    problems.push({ code: "empty", message: "the command is empty; send the command line to run" });
    return { ok: false, problems };
  }
  const trimmed = command.trimEnd();
  if (/(^|[^\\])(\\\\)*\\$/.test(trimmed)) {
    const lastLine = trimmed.split("\n").pop() ?? trimmed;
    problems.push({
      code: "trailing_backslash",
      message: `${quoteSegment(lastLine)} ends with a line-continuation \`\\\` but nothing follows; remove it or complete the command`,
    });
  }
  const quote = unbalancedQuote(command);
  if (quote) problems.push(quote);

  const parsed = parse(command);
  scanWords(parsed.root, parsed.source, problems);
  if (parsed.hasError && !quote && problems.every((p) => p.code !== "trailing_backslash")) {
    problems.push({ code: "parse_error", message: describeError(parsed) });
  }
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

function describeError(parsed: ParsedScript): string {
  const bad = firstError(parsed.root);
  const source = parsed.source;
  if (!bad) return `${quoteSegment(source)} is not valid bash`;
  const line = source.slice(0, bad.start).split("\n").length;
  if (bad.missing) {
    const before = source.slice(Math.max(0, bad.start - 30), bad.start).trim();
    const what = bad.type === "word" ? "a command" : `\`${bad.type}\``;
    return `bash parse error on line ${line}: ${what} is missing after \`${before}\``;
  }
  const text = source.slice(bad.start, bad.end).trim().slice(0, 60);
  if (text === "") return `bash parse error on line ${line}: the command ends unexpectedly`;
  return `bash parse error on line ${line} near \`${text}\`; check quoting, separators and brackets there`;
}

function scanWords(node: SyntaxNode, source: string, problems: LintProblem[]): void {
  if (node.type === "command") checkSpacedFlags(node, source, problems);
  if (node.type === "word" || node.type === "command_name") {
    const raw = source.slice(node.start, node.end);
    // An unescaped backslash before `n` (`a\\nb`), not an escaped backslash (`%s\\\\n`).
    const match = /(?:^|[^\\])(?:\\\\)*(\\n)/.exec(raw);
    if (match && !problems.some((p) => p.code === "literal_newline_escape")) {
      const at = match.index + match[0].length - 2;
      const before = raw.slice(0, at) || "…";
      const after = raw.slice(at + 2) || "…";
      problems.push({
        code: "literal_newline_escape",
        message: `\`${raw}\` contains a literal \`\\n\` between \`${before}\` and \`${after}\`; separate commands with a real newline or \`;\`, or quote the text if the backslash is meant`,
      });
    }
    return;
  }
  for (const child of node.children) scanWords(child, source, problems);
}

function checkSpacedFlags(command: SyntaxNode, source: string, problems: LintProblem[]): void {
  const args = command.children.filter((child) => child.field === "argument");
  for (let i = 0; i + 1 < args.length; i++) {
    const dash = source.slice((args[i] as SyntaxNode).start, (args[i] as SyntaxNode).end);
    const next = source.slice((args[i + 1] as SyntaxNode).start, (args[i + 1] as SyntaxNode).end);
    if ((dash === "-" || dash === "--") && /^[A-Za-z][A-Za-z-]?$/.test(next)) {
      const segment = source.slice(command.start, command.end);
      problems.push({
        code: "spaced_flag",
        message: `${quoteSegment(segment)} has a space inside the flag \`${dash} ${next}\`; write \`${dash}${next}\``,
      });
      return;
    }
  }
}

/** Scans quotes the way bash does (backslashes, `'…'`, `"…"`, `$'…'`), ignoring heredoc bodies. */
function unbalancedQuote(command: string): LintProblem | null {
  let quote: "'" | '"' | null = null;
  let start = 0;
  const lines = command.split("\n");
  let heredocEnd: string | null = null;
  let offset = 0;
  for (const line of lines) {
    if (heredocEnd !== null) {
      if (line.replace(/^\t+/, "") === heredocEnd) heredocEnd = null;
      offset += line.length + 1;
      continue;
    }
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quote === "'") {
        if (ch === "'") quote = null;
        continue;
      }
      if (ch === "\\") {
        i++;
        continue;
      }
      if (quote === '"') {
        if (ch === '"') quote = null;
        continue;
      }
      if (ch === "#" && (i === 0 || /\s/.test(line[i - 1] as string))) break;
      if (ch === "'" || ch === '"') {
        quote = ch;
        start = offset + i;
      }
    }
    if (quote === null) {
      const heredoc = /<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1/.exec(line);
      if (heredoc) heredocEnd = heredoc[2] as string;
    }
    offset += line.length + 1;
  }
  if (quote === null) return null;
  const fragment = command.slice(start, start + 40);
  return {
    code: "unbalanced_quote",
    message: `the ${quote === "'" ? "single" : "double"} quote opened at \`${fragment}\` is never closed; close it or escape it`,
  };
}
