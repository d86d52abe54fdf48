import type { SyntaxNode } from "../bash-parser.ts";

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
