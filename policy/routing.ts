import { z } from "zod";

/**
 * Entity attributes that decide where a command runs (jobs/execution/target-resolver.ts reads them:
 * the SSH endpoint, the guest id and owning host, the jail setting). Whoever can change them can
 * point an approved command at another machine, so they are the operator's: the model's
 * `update_entity_attributes` refuses them; `oikos import` (the operator's inventory) sets them.
 */
const ROUTING_KEYS = new Set([
  "transport",
  "parent",
  "vmid",
  "proxmox.vmid",
  "proxmox.node",
  "proxmox.host",
  // discovery matches guests and nodes by cluster: whoever sets it decides what gets re-routed
  "proxmox.cluster",
  // a guest's name is in the routing stamp: a rename (or a reused vmid) needs a new approval
  "proxmox.name",
  "ansible_host",
  "ansible_port",
  "ansible_user",
  "ansible_ssh_host",
  "ansible_ssh_port",
  "ansible_ssh_user",
  "ansible_connection",
  "jail",
]);

/**
 * Prefixes whose every key is routing: all SSH connection settings, all jail settings, and what a
 * guest runs commands with (`guest.shell`, `guest.os`: policy/guest-shell.ts), which decides how a
 * command is wrapped and graded.
 */
const ROUTING_PREFIXES = ["ssh.", "jail.", "guest."];

export function isRoutingAttribute(key: string): boolean {
  const k = key.trim().toLowerCase();
  return ROUTING_KEYS.has(k) || ROUTING_PREFIXES.some((prefix) => k.startsWith(prefix));
}

/** The routing keys among `keys`, in their order. */
export function routingAttributesIn(keys: Iterable<string>): string[] {
  return [...keys].filter(isRoutingAttribute);
}

/**
 * What the model may ask to change with `change_routing` (an operator approves it on a card): where
 * commands go, never how oikos logs in. A closed set: credentials (`ssh.password`, keys, tokens) are
 * not routing and are never stored; the jail's standing exceptions (`jail.unjailed_read_only`) are
 * offered by oikos itself and set by the operator only.
 */
export const ROUTING_CHANGE_KEYS = [
  "transport",
  "parent",
  "vmid",
  "ssh.host",
  "ssh.port",
  "ssh.user",
  "ssh.proxy_jump",
  "proxmox.vmid",
  "proxmox.node",
  "proxmox.host",
  "proxmox.cluster",
  "proxmox.name",
  "ansible_host",
  "ansible_port",
  "ansible_user",
  "ansible_connection",
  "jail",
  "jail.mode",
] as const;

export type RoutingChangeKey = (typeof ROUTING_CHANGE_KEYS)[number];

export const routingChangeKeySchema = z.enum(ROUTING_CHANGE_KEYS);

/** A key that names a credential: never routing, whatever its prefix. */
const CREDENTIAL_KEY =
  /pass(word|wd|phrase)?($|[._-])|secret|token|credential|private|(^|[._-])key($|[._-]|s$)|identity|api[_-]?key|cert/i;

export interface RoutingKeyProblems {
  /** Keys that name credentials (`ssh.password`, `ssh.key`, `api_token` …). */
  credentials: string[];
  /** Other keys that are not in ROUTING_CHANGE_KEYS. */
  notRouting: string[];
}

/** Which of `keys` change_routing must refuse, and why; both empty when every key is a routing key. */
export function routingKeyProblems(keys: Iterable<string>): RoutingKeyProblems {
  const problems: RoutingKeyProblems = { credentials: [], notRouting: [] };
  for (const key of keys) {
    if (routingChangeKeySchema.safeParse(key).success) continue;
    if (CREDENTIAL_KEY.test(key)) problems.credentials.push(key);
    else problems.notRouting.push(key);
  }
  return problems;
}
