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
