import type { SyntaxNode } from "../bash-parser.ts";
import { proofWord } from "./proof-word.ts";

/**
 * Names whose text the command does not fix: loop variables, `read` targets and variables
 * assigned anything but a number. A value like `a[$(reboot)]` in such a variable runs `reboot`
 * when bash evaluates it as arithmetic, so the proof keeps these out of arithmetic.
 */
export function taintedNames(root: SyntaxNode, source: string): Set<string> {
  const names = new Set<string>();
  const visit = (node: SyntaxNode): void => {
    if (node.type === "variable_assignment") {
      const name = node.children.find((child) => child.field === "name");
      const value = node.children.find((child) => child.field === "value");
      const literal = value ? source.slice(value.start, value.end) : "";
      if (name && !/^[0-9]+$/.test(literal)) names.add(source.slice(name.start, name.end));
    } else if (node.type === "for_statement") {
      const variable = node.children.find((child) => child.field === "variable");
      if (variable) names.add(source.slice(variable.start, variable.end));
    } else if (node.type === "command") {
      const head = node.children.find((child) => child.field === "name");
      if (head && source.slice(head.start, head.end) === "read") {
        for (const child of node.children) {
          if (child.field === "argument") names.add(source.slice(child.start, child.end));
        }
      }
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  return names;
}

/**
 * Names the command assigns only fixed text (`for h in a b; …`, `x=web1`), never from `read` or
 * a substitution: what such a variable expands to is written in the command itself.
 */
export function fixedNames(root: SyntaxNode, source: string): Set<string> {
  const fixed = new Set<string>();
  const unfixed = new Set<string>();
  const mark = (name: string, isFixed: boolean) => (isFixed ? fixed : unfixed).add(name);
  // A glob is not fixed text: it expands to the names of local files.
  const literal = (node: SyntaxNode | undefined) => !node || proofWord(node, source).static;
  const visit = (node: SyntaxNode): void => {
    if (node.type === "variable_assignment") {
      const name = node.children.find((child) => child.field === "name");
      const value = node.children.find((child) => child.field === "value");
      if (name) mark(source.slice(name.start, name.end), literal(value));
    } else if (node.type === "for_statement") {
      const variable = node.children.find((child) => child.field === "variable");
      const values = node.children.filter((child) => child.field === "value");
      if (variable)
        mark(source.slice(variable.start, variable.end), values.length > 0 && values.every(literal));
    } else if (node.type === "command") {
      const head = node.children.find((child) => child.field === "name");
      if (head && source.slice(head.start, head.end) === "read") {
        for (const child of node.children) {
          if (child.field === "argument") unfixed.add(source.slice(child.start, child.end));
        }
      }
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  for (const name of unfixed) fixed.delete(name);
  return fixed;
}

/** Builtins that assign the variables named in their arguments (`read x`, `printf -v x`, `getopts o x`). */
const ASSIGNING_BUILTINS = new Set([
  "read",
  "mapfile",
  "readarray",
  "getopts",
  "printf",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "let",
  "wait",
  "unset",
]);

/**
 * Names this command assigns only literal decimal numbers (`n=5`), and that nothing else assigns:
 * no loop, no `read`/`mapfile`/`getopts`/`printf -v`/`declare`… argument names them. Arithmetic
 * over them evaluates a number the command shows.
 */
export function numericNames(root: SyntaxNode, source: string): Set<string> {
  const numeric = new Set<string>();
  const other = new Set<string>();
  const visit = (node: SyntaxNode): void => {
    if (node.type === "variable_assignment") {
      const name = node.children.find((child) => child.field === "name");
      const value = node.children.find((child) => child.field === "value");
      const literal = value ? source.slice(value.start, value.end) : "";
      if (name)
        ((/^[0-9]+$/.test(literal) ? numeric : other) as Set<string>).add(source.slice(name.start, name.end));
    } else if (node.type === "for_statement" || node.type === "select_statement") {
      const variable = node.children.find((child) => child.field === "variable");
      if (variable) other.add(source.slice(variable.start, variable.end));
    } else if (node.type === "command" || node.type === "declaration_command") {
      const head = node.children.find((child) => child.field === "name") ?? node.children[0];
      const name = head ? source.slice(head.start, head.end) : "";
      if (ASSIGNING_BUILTINS.has(name) || node.type === "declaration_command") {
        for (const child of node.children) {
          for (const word of source.slice(child.start, child.end).split(/[^A-Za-z0-9_]+/)) other.add(word);
        }
      }
    }
    for (const child of node.children) visit(child);
  };
  visit(root);
  for (const name of other) numeric.delete(name);
  return numeric;
}
