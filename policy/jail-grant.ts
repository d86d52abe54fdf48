import { z } from "zod";

/**
 * A grant: one resource the read-only jail opens to a proven read-only command, for that run only.
 *
 * The contract between the proof and the jail. Contained by default, every command that runs with
 * nobody asked gets no network, no pathname or abstract Unix sockets, no device nodes beyond
 * null/zero/full/random/urandom, read-only filesystems, its own PID namespace and no capabilities.
 * A proven read-only tool that needs more names it in its proof spec (`ToolSpec.grants`); the
 * classifier returns the union over every piece of the command (a piece may not borrow another's
 * network, socket or unjailed grant: policy/proof/pieces.ts `borrowedGrant`)
 * (`Classification.grants`, read_only
 * only: a command the proof cannot attribute is not proven and gets none); the run service stores
 * them on the execution; the jail opens exactly these and nothing else, or does not run the command.
 *
 *  - `network`: the host's network (TCP/UDP/ICMP) for a proven network read (`curl` GET with fixed
 *    words, `ping`, `dig`). A program with file capabilities may start (Debian's ping: the jail keeps
 *    cap_net_raw in its bounding set, a capability of its own user namespace that reaches nothing in
 *    the host's network namespace), so ping uses an ICMP datagram socket where
 *    net.ipv4.ping_group_range allows the login (systemd's default), as it does unjailed.
 *  - `netlink`: the host's network namespace, read (`ip`, `bridge`, `ss`, `ethtool`; `/proc/net`
 *    for `netstat`, `lsof -i`). Engines that can restrict address families give netlink only; one
 *    that cannot must treat it as `network`. Netfilter, conntrack and WireGuard reads (`nft list`,
 *    `iptables -S|-L`, `conntrack -L`, `wg show`) need CAP_NET_ADMIN over the host's namespace,
 *    which no user-namespace jail holds: their specs send them `unjailed` (needs CAP_NET_ADMIN).
 *    `ethtool IFACE` stays jailed (its wake-on-LAN line reported hidden): outside, an old ethtool's
 *    ioctl for a name that is no interface loads the module of that name.
 *  - `device`: one device node the command names, read-only (`blkid /dev/vda`, `smartctl -a
 *    /dev/sda`, `nvme smart-log /dev/nvme0`). Never a terminal or input device.
 *  - `block_devices`: every block device, read-only (`lsblk -f`, `blkid`, `fdisk -l`, `parted -l`).
 *  - `zfs`: `/dev/zfs` (`zfs list|get`, `zpool status|list|iostat`).
 *  - `kernel_log`: the kernel ring buffer, read only (`dmesg`; `journalctl -k` reads journal files).
 *    The jail can open it only where kernel.dmesg_restrict is 0: otherwise reading it needs
 *    CAP_SYSLOG in the machine's own user namespace (Debian's default is 1), and the run fails
 *    closed (the operator is asked). `dmesg`'s spec sends it `unjailed` (needs the kernel log).
 *  - `process_info`: other processes' descriptors and sockets. No user-namespace jail can grant it
 *    (it needs CAP_SYS_PTRACE over the machine's own user namespace): a run that names it fails
 *    closed; `ss -p`, `netstat -p`, `lsof`, `fuser` are sent `unjailed` by their specs, which then
 *    hold them to one pass, fixed words and addresses only: outside the jail a host name they
 *    resolve is a DNS query from the host (policy/proof/tools/no-name-lookups.ts).
 *  - `socket`: one service's Unix socket (`docker ps` → docker; `systemctl status` → systemd;
 *    `chronyc tracking` → chrony: /run/chrony/chronyd.sock; `tmux ls` → tmux: /tmp/tmux-UID/,
 *    which the jail's private /tmp hides); the jail knows each service's socket paths
 *    (`SOCKET_SERVICES`).
 *  - `unjailed`: the resource cannot be granted safely inside the jail, so the proof spec sends the
 *    run outside it by name; recorded and audited as "unjailed: needs <needs> (proven by spec <spec>)".
 *    Besides the above: the machine's mount table for `df` and `findmnt` in the forms that only list
 *    it (inside the jail every mount reads ro,nodev beside the jail's own scratch space;
 *    policy/proof/tools/mount-table.ts). A spec may only prefer the run outside
 *    (`INSIDE_WHEN_SHARED`): with another piece that would share it, the tool runs inside instead.
 */
export const SOCKET_SERVICES = [
  "docker",
  "podman",
  "containerd",
  "systemd",
  "dbus",
  "libvirt",
  "chrony",
  "tmux",
] as const;
export type SocketService = (typeof SOCKET_SERVICES)[number];

export const JAIL_RESOURCES = [
  "network",
  "netlink",
  "device",
  "block_devices",
  "zfs",
  "kernel_log",
  "process_info",
  "socket",
  "unjailed",
] as const;
export type JailResource = (typeof JAIL_RESOURCES)[number];

export type JailGrant =
  | { resource: "network" }
  | { resource: "netlink" }
  | { resource: "device"; path: string }
  | { resource: "block_devices" }
  | { resource: "zfs" }
  | { resource: "kernel_log" }
  | { resource: "process_info" }
  | { resource: "socket"; service: SocketService }
  | { resource: "unjailed"; needs: string; spec: string };

/** A device path a grant may name: absolute under /dev, no `..`, no terminal or input device. */
export function isGrantableDevicePath(path: string): boolean {
  if (!/^\/dev\/[A-Za-z0-9._/+:-]+$/.test(path) || path.includes("/../") || path.endsWith("/.."))
    return false;
  return !/^\/dev\/(pts\/|tty|console|input\/|hidraw|vcs|uinput|ptmx|watchdog|kmsg|mem|kmem|port|fd\/)/.test(
    path,
  );
}

/** The zod schema of one grant, for every boundary that stores or reads them (executions, audit). */
export const jailGrantSchema: z.ZodType<JailGrant> = z.discriminatedUnion("resource", [
  z.object({ resource: z.literal("network") }).strict(),
  z.object({ resource: z.literal("netlink") }).strict(),
  z.object({ resource: z.literal("device"), path: z.string().refine(isGrantableDevicePath) }).strict(),
  z.object({ resource: z.literal("block_devices") }).strict(),
  z.object({ resource: z.literal("zfs") }).strict(),
  z.object({ resource: z.literal("kernel_log") }).strict(),
  z.object({ resource: z.literal("process_info") }).strict(),
  z.object({ resource: z.literal("socket"), service: z.enum(SOCKET_SERVICES) }).strict(),
  z.object({ resource: z.literal("unjailed"), needs: z.string().min(1), spec: z.string().min(1) }).strict(),
]);
export const jailGrantsSchema = z.array(jailGrantSchema);

/** One stable key per grant: equal keys are the same grant. */
export function grantKey(grant: JailGrant): string {
  switch (grant.resource) {
    case "device":
      return `device:${grant.path}`;
    case "socket":
      return `socket:${grant.service}`;
    case "unjailed":
      return `unjailed:${grant.needs}:${grant.spec}`;
    default:
      return grant.resource;
  }
}

/** The union of grants: each once, in a stable order (so equal sets compare and hash equal). */
export function unionGrants(...lists: readonly (readonly JailGrant[])[]): JailGrant[] {
  const byKey = new Map<string, JailGrant>();
  for (const list of lists) for (const grant of list) byKey.set(grantKey(grant), grant);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, grant]) => grant);
}

/** Whether any grant sends the run outside the jail. */
export function runsUnjailed(grants: readonly JailGrant[]): boolean {
  return grants.some((grant) => grant.resource === "unjailed");
}

/** A person's words for one grant (cards, `get_execution_status`, `oikos check`). */
export function describeGrant(grant: JailGrant): string {
  switch (grant.resource) {
    case "network":
      return "the network";
    case "netlink":
      return "network configuration (netlink, read)";
    case "device":
      return `${grant.path} (read-only)`;
    case "block_devices":
      return "every block device (read-only)";
    case "zfs":
      return "ZFS (/dev/zfs)";
    case "kernel_log":
      return "the kernel log (read)";
    case "process_info":
      return "other processes' sockets and files";
    case "socket":
      return `the ${grant.service} socket`;
    case "unjailed":
      return `unjailed: needs ${grant.needs} (proven by spec ${grant.spec})`;
  }
}

/** A stored grant list (executions.jail_grants, audit details) in a person's words; unreadable: none. */
export function describeStoredGrants(value: unknown): string[] {
  const parsed = jailGrantsSchema.safeParse(value ?? []);
  return parsed.success ? parsed.data.map(describeGrant) : [];
}
