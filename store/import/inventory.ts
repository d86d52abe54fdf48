/**
 * The parsed form of an inventory file, before it touches the database. Parsers (ansible INI/YAML,
 * ssh_config) produce it; apply-inventory.ts turns it into entities and member-of relationships.
 */
export type InventoryVars = Record<string, unknown>;

export interface InventoryGroup {
  vars: InventoryVars;
  hosts: Set<string>;
  children: Set<string>;
}

export interface Inventory {
  source: "ansible" | "ssh-config";
  /** Host name -> its own vars (not inherited ones). */
  hosts: Map<string, InventoryVars>;
  groups: Map<string, InventoryGroup>;
  warnings: string[];
}

export function emptyInventory(source: Inventory["source"]): Inventory {
  return { source, hosts: new Map(), groups: new Map(), warnings: [] };
}

export function groupOf(inventory: Inventory, name: string): InventoryGroup {
  let group = inventory.groups.get(name);
  if (!group) {
    group = { vars: {}, hosts: new Set(), children: new Set() };
    inventory.groups.set(name, group);
  }
  return group;
}

export function addHost(inventory: Inventory, name: string, vars: InventoryVars, group?: string): void {
  inventory.hosts.set(name, { ...inventory.hosts.get(name), ...vars });
  if (group) groupOf(inventory, group).hosts.add(name);
}

/**
 * Ansible host patterns with ranges: `web[01:03].lan` -> web01.lan, web02.lan, web03.lan; `db-[a:c]`
 * -> db-a, db-b, db-c; an optional third part is the stride. Leading zeros keep their width.
 */
export function expandHostPattern(pattern: string): string[] {
  const match = /^(.*?)\[([0-9a-z]+):([0-9a-z]+)(?::(\d+))?\](.*)$/i.exec(pattern);
  if (!match) return [pattern];
  const [, prefix = "", start = "", end = "", stride = "1", suffix = ""] = match;
  const step = Math.max(1, Number(stride));
  const values: string[] = [];
  if (/^\d+$/.test(start) && /^\d+$/.test(end)) {
    const width = start.startsWith("0") ? start.length : 0;
    for (let n = Number(start); n <= Number(end); n += step) values.push(String(n).padStart(width, "0"));
  } else {
    for (let c = start.charCodeAt(0); c <= end.charCodeAt(0); c += step) values.push(String.fromCharCode(c));
  }
  return values.flatMap((value) => expandHostPattern(`${prefix}${value}${suffix}`));
}
