import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parseAnsibleIni } from "./ansible-ini.ts";
import { parseAnsibleYaml } from "./ansible-yaml.ts";
import type { Inventory } from "./inventory.ts";
import { parseSshConfig } from "./ssh-config.ts";

export type InventoryFormat = "ansible" | "ssh-config";

/** Reads and parses an inventory file; Ansible YAML vs INI by extension, else by the first line. */
export async function readInventory(format: InventoryFormat, path: string): Promise<Inventory> {
  const text = await readFile(path, "utf8");
  if (format === "ssh-config") return parseSshConfig(text);
  return looksLikeYaml(path, text) ? parseAnsibleYaml(text) : parseAnsibleIni(text);
}

function looksLikeYaml(path: string, text: string): boolean {
  const extension = extname(path).toLowerCase();
  if ([".yml", ".yaml", ".json"].includes(extension)) return true;
  if (extension === ".ini" || extension === ".cfg") return false;
  const first = text.split(/\r?\n/).find((line) => line.trim() && !/^\s*[#;]/.test(line)) ?? "";
  return first.trim() === "---" || /^[\w.-]+:\s*$/.test(first.trim());
}
