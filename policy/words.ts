import type { SyntaxNode } from "./bash-parser.ts";

/**
 * What a shell word evaluates to, as far as we can know before running it.
 * `text` is the word after quote removal; expansions stay in their source form (`$HOME`).
 * `dynamic` says what the shell would substitute at run time.
 */
export interface WordValue {
  text: string;
  dynamic: "none" | "variable" | "command";
}

const DYNAMIC_RANK = { none: 0, variable: 1, command: 2 } as const;

function worse(a: WordValue["dynamic"], b: WordValue["dynamic"]): WordValue["dynamic"] {
  return DYNAMIC_RANK[a] >= DYNAMIC_RANK[b] ? a : b;
}

/** Quote removal for an unquoted word: `\x` is `x`, a backslash-newline disappears. */
export function unescapeUnquoted(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\(\n|.)/g, (_match, ch: string) => (ch === "\n" ? "" : ch));
}

/** Inside double quotes only \" \\ \$ \` and backslash-newline are escapes. */
function unescapeDoubleQuoted(raw: string): string {
  if (!raw.includes("\\")) return raw;
  return raw.replace(/\\([\\"$`\n])/g, (_match, ch: string) => (ch === "\n" ? "" : ch));
}

const ANSI_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  e: "\x1b",
  E: "\x1b",
  "0": "\0",
};

function unescapeAnsiC(raw: string): string {
  return raw.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/g,
    (match, esc: string) => {
      const kind = esc[0] as string;
      if (kind === "x" || kind === "u" || kind === "U")
        return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(esc, 8));
      return ANSI_ESCAPES[esc] ?? match;
    },
  );
}

/** Evaluates a word-like node (word, string, raw_string, concatenation, expansion …). */
export function wordValue(node: SyntaxNode, source: string): WordValue {
  const raw = source.slice(node.start, node.end);
  switch (node.type) {
    case "word":
    case "command_name":
      if (node.type === "command_name") {
        const inner = node.children[0];
        return inner ? wordValue(inner, source) : { text: "", dynamic: "none" };
      }
      return { text: unescapeUnquoted(raw), dynamic: "none" };
    case "number":
    case "file_descriptor":
    case "extglob_pattern":
    case "regex":
    case "variable_name":
      return { text: raw, dynamic: "none" };
    case "raw_string":
      return { text: raw.slice(1, -1), dynamic: "none" };
    case "ansi_c_string":
      return { text: unescapeAnsiC(raw.slice(2, -1)), dynamic: "none" };
    case "translated_string": {
      const inner = node.children.find((child) => child.type === "string");
      return inner ? wordValue(inner, source) : { text: raw.slice(1), dynamic: "none" };
    }
    case "string":
      return stringValue(node, source);
    case "concatenation":
    case "brace_expression": {
      let text = "";
      let dynamic: WordValue["dynamic"] = "none";
      for (const child of node.children) {
        const part = wordValue(child, source);
        text += part.text;
        dynamic = worse(dynamic, part.dynamic);
      }
      return { text, dynamic };
    }
    case "simple_expansion":
    case "expansion":
    case "arithmetic_expansion":
      return { text: raw, dynamic: containsSubstitution(node) ? "command" : "variable" };
    case "command_substitution":
    case "process_substitution":
      return { text: raw, dynamic: "command" };
    default:
      // Anonymous punctuation inside concatenations (`{`, `}`, `,`) and anything unforeseen.
      return node.named ? { text: raw, dynamic: "variable" } : { text: raw, dynamic: "none" };
  }
}

function stringValue(node: SyntaxNode, source: string): WordValue {
  let text = "";
  let dynamic: WordValue["dynamic"] = "none";
  let cursor = node.start + 1;
  for (const child of node.children) {
    if (!child.named) continue; // the quotes
    // Text between named children that tree-sitter did not wrap (rare) is kept verbatim.
    if (child.start > cursor) text += unescapeDoubleQuoted(source.slice(cursor, child.start));
    if (child.type === "string_content") {
      text += unescapeDoubleQuoted(source.slice(child.start, child.end));
    } else {
      const part = wordValue(child, source);
      text += part.text;
      dynamic = worse(dynamic, part.dynamic);
    }
    cursor = child.end;
  }
  const closing = node.end - 1;
  if (closing > cursor) text += unescapeDoubleQuoted(source.slice(cursor, closing));
  return { text, dynamic };
}

export function containsSubstitution(node: SyntaxNode): boolean {
  if (node.type === "command_substitution" || node.type === "process_substitution") return true;
  for (const child of node.children) if (containsSubstitution(child)) return true;
  return false;
}
