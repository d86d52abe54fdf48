import { ACCOUNT_RULES } from "./accounts.ts";
import { CONTAINER_RULES } from "./containers.ts";
import { DAILY_READ_RULES } from "./daily-reads.ts";
import { DATABASE_RULES } from "./databases.ts";
import { DOCKER_RULES } from "./docker.ts";
import { EDITOR_RULES } from "./editors.ts";
import { FILE_RULES } from "./files.ts";
import { GIT_RULES } from "./git.ts";
import { INFRASTRUCTURE_RULES } from "./infrastructure.ts";
import { NETWORK_RULES } from "./network.ts";
import { NETWORK_CLIENT_RULES } from "./network-clients.ts";
import { PACKAGE_RULES } from "./packages.ts";
import { PROCESS_WRAPPER_RULES } from "./process-wrappers.ts";
import { PROXMOX_RULES } from "./proxmox.ts";
import { READ_ONLY_TOOL_RULES } from "./read-only-tools.ts";
import type { CommandRule } from "./rule.ts";
import { SERVICE_RULES } from "./services.ts";
import { SHELL_RULES } from "./shells.ts";
import { STORAGE_RULES } from "./storage.ts";
import { SYSTEM_RULES } from "./system.ts";
import { TEXT_RULES } from "./text.ts";
import { WRAPPER_RULES } from "./wrappers.ts";

/** Every command rule, in one list (the rules test loads each one's examples). */
export const ALL_RULES: readonly CommandRule[] = [
  ...WRAPPER_RULES,
  ...PROCESS_WRAPPER_RULES,
  ...SHELL_RULES,
  ...READ_ONLY_TOOL_RULES,
  ...FILE_RULES,
  ...SYSTEM_RULES,
  ...TEXT_RULES,
  ...PROXMOX_RULES,
  ...STORAGE_RULES,
  ...DOCKER_RULES,
  ...CONTAINER_RULES,
  ...SERVICE_RULES,
  ...PACKAGE_RULES,
  ...NETWORK_RULES,
  ...NETWORK_CLIENT_RULES,
  ...GIT_RULES,
  ...DATABASE_RULES,
  ...INFRASTRUCTURE_RULES,
  ...EDITOR_RULES,
  ...DAILY_READ_RULES,
  ...ACCOUNT_RULES,
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
