import {
  addHost,
  emptyInventory,
  expandHostPattern,
  groupOf,
  type Inventory,
  type InventoryVars,
} from "./inventory.ts";

/**
 * Parses an Ansible INI inventory: `[group]` host lines with inline `key=value` vars, `[group:vars]`,
 * `[group:children]`; hosts before any section are ungrouped. Values are parsed like Ansible does for
 * INI (numbers and booleans become typed, quotes are stripped).
 */
export function parseAnsibleIni(text: string): Inventory {
  const inventory = emptyInventory("ansible");
  let section: { group: string; kind: "hosts" | "vars" | "children" } = { group: "ungrouped", kind: "hosts" };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = stripComment(raw).trim();
    if (!line) return;
    const header = /^\[([^\]:]+)(?::(vars|children))?\]$/.exec(line);
    if (header) {
      section = { group: header[1]!.trim(), kind: (header[2] as "vars" | "children" | undefined) ?? "hosts" };
      groupOf(inventory, section.group);
      return;
    }
    if (section.kind === "vars") {
      const [key, value] = splitAssignment(line);
      if (key) groupOf(inventory, section.group).vars[key] = parseValue(value);
      else inventory.warnings.push(`line ${index + 1}: expected key=value in [${section.group}:vars]`);
      return;
    }
    if (section.kind === "children") {
      groupOf(inventory, section.group).children.add(line);
      groupOf(inventory, line);
      return;
    }
    const [pattern, ...assignments] = tokenize(line);
    const vars: InventoryVars = {};
    for (const assignment of assignments) {
      const [key, value] = splitAssignment(assignment);
      if (key) vars[key] = parseValue(value);
      else inventory.warnings.push(`line ${index + 1}: ignored "${assignment}" (expected key=value)`);
    }
    for (const host of expandHostPattern(pattern!)) addHost(inventory, host, vars, section.group);
  });
  return inventory;
}

function stripComment(line: string): string {
  const trimmed = line.trimStart();
  if (trimmed.startsWith("#") || trimmed.startsWith(";")) return "";
  return line.replace(/\s+#.*$/, "");
}

/** Splits on whitespace outside quotes, so `msg="a b"` stays one token. */
function tokenize(line: string): string[] {
  return line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [];
}

function splitAssignment(text: string): [string | null, string] {
  const eq = text.indexOf("=");
  if (eq <= 0) return [null, ""];
  return [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
}

function parseValue(value: string): unknown {
  if (/^(["']).*\1$/.test(value)) return value.slice(1, -1);
  if (/^-?\d+$/.test(value)) return Number(value);
  if (/^(true|yes)$/i.test(value)) return true;
  if (/^(false|no)$/i.test(value)) return false;
  return value;
}
