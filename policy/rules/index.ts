import { CONTAINER_RULES } from "./containers.ts";
import { FILE_RULES } from "./files.ts";
import { NETWORK_RULES } from "./network.ts";
import { PROXMOX_RULES } from "./proxmox.ts";
import type { CommandRule } from "./rule.ts";
import { SERVICE_RULES } from "./services.ts";
import { STORAGE_RULES } from "./storage.ts";
import { TEXT_RULES } from "./text.ts";
import { VCS_DB_RULES } from "./vcs-db.ts";
import { WRAPPER_RULES } from "./wrappers.ts";

/** Every command rule, in one list (the rules test loads each one's examples). */
export const ALL_RULES: readonly CommandRule[] = [
  ...WRAPPER_RULES,
  ...FILE_RULES,
  ...TEXT_RULES,
  ...PROXMOX_RULES,
  ...STORAGE_RULES,
  ...CONTAINER_RULES,
  ...SERVICE_RULES,
  ...NETWORK_RULES,
  ...VCS_DB_RULES,
];

/** Names claimed by more than one rule: must stay empty (the rules test asserts it). */
export const DUPLICATE_NAMES: string[] = [];

function index(rules: readonly CommandRule[]): Map<string, CommandRule> {
  const map = new Map<string, CommandRule>();
  for (const rule of rules) {
    for (const name of rule.names) {
      if (map.has(name)) DUPLICATE_NAMES.push(name);
      map.set(name, rule);
    }
  }
  return map;
}

/** Command name (basename) to its rule. */
export const RULES: ReadonlyMap<string, CommandRule> = index(ALL_RULES);
