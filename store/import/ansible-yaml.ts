import { parse } from "yaml";
import { z } from "zod";
import { OikosError } from "../../base/errors.ts";
import { addHost, emptyInventory, expandHostPattern, groupOf, type Inventory } from "./inventory.ts";

const varsSchema = z.record(z.string(), z.unknown()).nullish();
type GroupNode = {
  hosts?: Record<string, unknown> | null;
  vars?: unknown;
  children?: Record<string, unknown> | null;
};
const groupSchema: z.ZodType<GroupNode> = z.object({
  hosts: z.record(z.string(), varsSchema).nullish(),
  vars: varsSchema,
  children: z.record(z.string(), z.unknown()).nullish(),
});

/**
 * Parses an Ansible YAML inventory: top-level groups (usually `all`), each with `hosts` (name -> vars
 * or null), `vars` and `children` (nested groups of the same shape).
 */
export function parseAnsibleYaml(text: string): Inventory {
  const document: unknown = parse(text);
  const top = z.record(z.string(), z.unknown()).nullish().safeParse(document);
  if (!top.success) {
    throw new OikosError(
      "inventory_invalid",
      "The YAML inventory must be a mapping of group names (e.g. all:).",
    );
  }
  const inventory = emptyInventory("ansible");
  for (const [name, node] of Object.entries(top.data ?? {})) visitGroup(inventory, name, node, [name]);
  return inventory;
}

function visitGroup(inventory: Inventory, name: string, node: unknown, path: string[]): void {
  const parsed = groupSchema.safeParse(node ?? {});
  const group = groupOf(inventory, name);
  if (!parsed.success) {
    inventory.warnings.push(`group ${path.join(" > ")}: ignored, not a mapping of hosts/vars/children`);
    return;
  }
  Object.assign(group.vars, (parsed.data.vars as Record<string, unknown> | null | undefined) ?? {});
  for (const [pattern, vars] of Object.entries(parsed.data.hosts ?? {})) {
    for (const host of expandHostPattern(pattern))
      addHost(inventory, host, (vars as Record<string, unknown> | null) ?? {}, name);
  }
  for (const [child, childNode] of Object.entries(parsed.data.children ?? {})) {
    group.children.add(child);
    if (path.includes(child)) {
      inventory.warnings.push(`group ${child}: cycle through ${path.join(" > ")}, not descended again`);
      continue;
    }
    visitGroup(inventory, child, childNode, [...path, child]);
  }
}
