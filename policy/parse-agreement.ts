import type { ParsedScript, SyntaxNode } from "./bash-parser.ts";
import type { SecondParser, SecondTree } from "./second-parser.ts";
import { FIELDS } from "./second-parser.ts";

/**
 * The structure of a script that decides what it does, as a set of keys both parsers can state:
 * every simple command with the spans of its words and assignments, every redirection (operator,
 * descriptor, target), every command and process substitution, every parameter expansion, every
 * heredoc body and comment. Two parsers from different authors agreeing on this set is the
 * evidence that the classifier walks what bash will run.
 */
export type Shape = Set<string>;

/** Deeper trees are refused: nothing an operator types nests this far, and walks stay bounded. */
export const MAX_NESTING = 200;
const TOO_DEEP = "too-deep";

export interface Disagreement {
  /** A key one parser has and the other lacks, in words. */
  reason: string;
}

/** The shape of tree-sitter-bash's tree. */
export function treeSitterShape(parsed: ParsedScript): Shape {
  const shape: Shape = new Set();
  visitTs(parsed.root, parsed.source, shape);
  return shape;
}

/** Where an assignment is a statement of its own (not inside a command, declaration or arithmetic). */
const STATEMENT_CONTAINERS = new Set([
  "program",
  "list",
  "pipeline",
  "compound_statement",
  "subshell",
  "do_group",
  "if_statement",
  "elif_clause",
  "else_clause",
  "case_item",
  "command_substitution",
  "process_substitution",
  "redirected_statement",
  "negated_command",
]);

function visitTs(node: SyntaxNode, source: string, shape: Shape, statementContext = true, depth = 0): void {
  if (depth > MAX_NESTING) {
    shape.add(TOO_DEEP);
    return;
  }
  switch (node.type) {
    case "command": {
      const words: string[] = [];
      for (const child of node.children) {
        if (child.field === "name" || child.field === "argument") words.push(`${child.start}-${child.end}`);
        else if (child.type === "variable_assignment") words.push(`=${child.start}-${child.end}`);
      }
      shape.add(`command ${words.join(" ")}`);
      break;
    }
    case "variable_assignment":
    case "variable_assignments":
      // A statement of assignments alone: mvdan/sh calls it a command without words.
      if (statementContext) {
        const parts = node.type === "variable_assignment" ? [node] : node.children.filter((c) => c.named);
        shape.add(`command ${parts.map((part) => `=${part.start}-${part.end}`).join(" ")}`);
      }
      break;
    case "declaration_command":
    case "unset_command":
    case "test_command":
      shape.add(`special ${node.start}-${node.end}`);
      break;
    case "file_redirect":
    case "herestring_redirect":
    case "heredoc_redirect":
      shape.add(tsRedirect(node, source));
      break;
    case "heredoc_body":
      shape.add(`heredoc-body ${node.start}`);
      break;
    case "command_substitution":
      shape.add(`substitution ${source[node.start] === "`" ? "`" : "$("} ${node.start}-${node.end}`);
      break;
    case "process_substitution":
      shape.add(`substitution ${source.slice(node.start, node.start + 2)} ${node.start}-${node.end}`);
      break;
    case "simple_expansion":
    case "expansion":
      shape.add(`parameter ${node.start}-${node.end}`);
      break;
    case "arithmetic_expansion":
      shape.add(`arithmetic ${node.start}-${node.end}`);
      break;
    case "comment":
      shape.add(`comment ${node.start}`);
      break;
  }
  const statements = STATEMENT_CONTAINERS.has(node.type);
  for (const child of node.children) visitTs(child, source, shape, statements, depth + 1);
}

function tsRedirect(node: SyntaxNode, source: string): string {
  const descriptor = node.children.find((child) => child.type === "file_descriptor");
  const fd = descriptor ? source.slice(descriptor.start, descriptor.end) : "-";
  const operator = node.children.find((child) => !child.named)?.type ?? "?";
  let target: SyntaxNode | undefined;
  if (node.type === "heredoc_redirect")
    target = node.children.find((child) => child.type === "heredoc_start");
  else if (node.type === "herestring_redirect") target = node.children.find((child) => child.named);
  else target = node.children.find((child) => child.field === "destination");
  const span = target ? `${target.start}-${target.end}` : "none";
  return `redirect ${fd}${operator} ${span}`;
}

/** The shape of mvdan/sh's tree. */
export function secondShape(tree: SecondTree, parser: SecondParser, source: string): Shape {
  const shape: Shape = new Set();
  const { records, count } = tree;
  const types: string[] = new Array(count);
  for (let i = 0; i < count; i++) types[i] = parser.typeName(records[i * FIELDS] as number);
  // Only calls and redirects read their children (records come parent first, children in order).
  const children = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const parent = records[i * FIELDS + 3] as number;
    if (parent < 0 || (types[parent] !== "CallExpr" && types[parent] !== "Redirect")) continue;
    const list = children.get(parent);
    if (list) list.push(i);
    else children.set(parent, [i]);
  }
  const start = (i: number) => records[i * FIELDS + 1] as number;
  const end = (i: number) => records[i * FIELDS + 2] as number;
  const span = (i: number) => `${start(i)}-${end(i)}`;
  for (let i = 0; i < count; i++) {
    const extra = records[i * FIELDS + 4] as number;
    switch (types[i]) {
      case "CallExpr":
        shape.add(callKey(i, children.get(i) ?? [], types, records, source));
        break;
      case "DeclClause":
      case "TestClause":
        shape.add(`special ${span(i)}`);
        break;
      case "Redirect": {
        const fd = records[i * FIELDS + 5] as number;
        const words = (children.get(i) ?? []).filter((k) => types[k] === "Word");
        const target = words[0];
        shape.add(
          `redirect ${fd < 0 ? "-" : fd}${parser.token(extra)} ${target === undefined ? "none" : span(target)}`,
        );
        const body = words[1];
        if (body !== undefined) shape.add(`heredoc-body ${start(body)}`);
        break;
      }
      case "CmdSubst":
        shape.add(`substitution ${extra & 1 ? "`" : "$("} ${span(i)}`);
        break;
      case "ProcSubst":
        shape.add(`substitution ${parser.token(extra)} ${span(i)}`);
        break;
      case "ParamExp":
        shape.add(`parameter ${span(i)}`);
        break;
      case "ArithmExp":
        shape.add(`arithmetic ${span(i)}`);
        break;
      case "Comment":
        shape.add(`comment ${start(i)}`);
        break;
    }
  }
  return shape;
}

/** The key of one simple command of mvdan/sh's tree: `command` and the spans of its words. */
function callKey(call: number, kids: number[], types: string[], records: number[], source: string): string {
  const span = (i: number) => `${records[i * FIELDS + 1]}-${records[i * FIELDS + 2]}`;
  const firstWord = kids.find((k) => types[k] === "Word");
  if (firstWord !== undefined) {
    const name = source.slice(records[firstWord * FIELDS + 1], records[firstWord * FIELDS + 2]);
    if (name === "[" || name === "unset" || name === "unsetenv") return `special ${span(call)}`;
  }
  const words: string[] = [];
  for (const k of kids) {
    if (types[k] === "Word") words.push(span(k));
    else if (types[k] === "Assign") words.push(`=${span(k)}`);
  }
  // `time [-p] cmd`: mvdan/sh has a time clause, tree-sitter a command named `time`.
  const clause = records[call * FIELDS + 3] as number;
  if (clause >= 0 && types[clause] === "TimeClause") {
    const at = records[clause * FIELDS + 1] as number;
    const posix = /^time[ \t]+-p(?=[ \t])/.exec(source.slice(at));
    if (posix) words.unshift(`${at}-${at + 4}`, `${at + posix[0].length - 2}-${at + posix[0].length}`);
    else words.unshift(`${at}-${at + 4}`);
  }
  return `command ${words.join(" ")}`;
}

/** The first structural difference between the two parses, in words, or null when they agree. */
export function compareShapes(first: Shape, second: Shape, source: string): Disagreement | null {
  for (const key of first) {
    if (!second.has(key)) return { reason: describe(key, source, "tree-sitter-bash", "mvdan/sh") };
  }
  // Every key of the first is in the second: equal sizes mean equal sets.
  if (first.size === second.size) return null;
  for (const key of second) {
    if (!first.has(key)) return { reason: describe(key, source, "mvdan/sh", "tree-sitter-bash") };
  }
  return null;
}

function describe(key: string, source: string, has: string, lacks: string): string {
  if (key === TOO_DEEP) {
    return `the command nests more than ${MAX_NESTING} syntax levels deep; split it into simpler commands`;
  }
  const [kind = "", ...rest] = key.split(" ");
  const spans = rest.filter((part) => /^=?\d+-\d+$/.test(part));
  const first = spans[0]?.replace("=", "").split("-").map(Number);
  const last = spans.at(-1)?.replace("=", "").split("-").map(Number);
  const at = kind === "comment" || kind === "heredoc-body" ? Number(rest[0]) : (first?.[0] ?? 0);
  const to = kind === "comment" || kind === "heredoc-body" ? at + 20 : (last?.[1] ?? at + 20);
  const text = source.slice(at, Math.min(to, at + 60)).replace(/\s+/g, " ");
  const what = kind === "command" ? "a command" : kind === "special" ? "a builtin command" : `a ${kind}`;
  return (
    `the two bash parsers disagree on what runs: ${has} reads ${what} \`${text}\` at offset ${at} that ` +
    `${lacks} does not; bash may run something other than what was checked, so the command is rejected. ` +
    "Rewrite it plainly (no line continuations inside comments or quotes, no nested backquotes, one command per line)"
  );
}
