import type { JailGrant } from "../../jail-grant.ts";
import type { ProofWord } from "../proof-word.ts";

export const BLOCK_DEVICES: readonly JailGrant[] = [{ resource: "block_devices" }];
export const NETLINK: readonly JailGrant[] = [{ resource: "netlink" }];

/** CAP_NET_ADMIN over the host's network namespace: netfilter, conntrack and WireGuard reads. */
export const NET_ADMIN = "CAP_NET_ADMIN";
/**
 * Other processes' descriptors and sockets (`ss -p`, `lsof`, `fuser`, `netstat -p`): reading them needs
 * CAP_SYS_PTRACE over the machine's own user namespace, which no user-namespace jail holds.
 */
export const PROCESS_INFO = "other processes' descriptors and sockets (CAP_SYS_PTRACE)";
/** The kernel ring buffer: CAP_SYSLOG in the machine's own user namespace where kernel.dmesg_restrict is 1 (Debian's default). */
export const KERNEL_LOG = "the kernel log (CAP_SYSLOG where kernel.dmesg_restrict is 1)";
/** Proxmox's tools talk to pmxcfs over abstract sockets, and to the node's daemons. */
export const PROXMOX_IPC = "Proxmox cluster IPC";
/**
 * The machine's mount table. The jail's own is another: every mount remounted `ro,nodev` (the
 * kernel's own enforcement, which the table shows), listed in the order the namespace copied them,
 * with the jail's scratch tmpfs and device binds beside them — and `df` reads /proc/self/mountinfo,
 * which no grant can point elsewhere. `df` and `findmnt` in the forms that only read the table run
 * outside the jail by name.
 */
export const MOUNT_TABLE = "the machine's mount table (the jail's own lists every mount read-only)";

/**
 * Runs outside the jail a tool prefers but can do without: inside the jail it still answers, with
 * one difference the jailed result reports in data (policy/jail-hidden.ts: the jail's own mount
 * table, a capability it does not hold). The jail opens a run to the whole command, so when another
 * piece that is not a text filter would share it (`uptime; df -h`), such a tool runs inside the
 * jail with these grants instead (policy/proof/pieces.ts `runTogether`), and the command still
 * runs with nobody asked. Keyed by the spec that names the run outside.
 */
export const INSIDE_WHEN_SHARED: ReadonlyMap<string, readonly JailGrant[]> = new Map([
  ["df", []],
  ["findmnt", []],
]);

/** A run outside the jail, by name: `spec` is the tool whose spec proves it read-only. */
export function unjailed(needs: string, spec: string): readonly JailGrant[] {
  return [{ resource: "unjailed", needs, spec }];
}

/** Whether a word names a device path (a disk the tool reads; granted by the proof itself). */
export function namesDevice(args: readonly ProofWord[]): boolean {
  return args.some((arg) => /^(\/dev\/|[a-z]+=\/dev\/)/.test(arg.value));
}

/** A tool that scans every block device unless the command names one (`blkid`, `fdisk -l`). */
export function blockDevicesUnlessNamed(args: readonly ProofWord[]): readonly JailGrant[] {
  return namesDevice(args) ? [] : BLOCK_DEVICES;
}

/** Whether one of the options is given, alone or in a bundle of short flags (`-tlnp` has `-p`). */
export function hasFlag(args: readonly ProofWord[], short: string, long: readonly string[] = []): boolean {
  return args.some(
    (arg) =>
      arg.static &&
      ((short !== "" &&
        new RegExp(`^-[A-Za-z0-9]*[${short}]`).test(arg.value) &&
        !arg.value.startsWith("--")) ||
        long.some((name) => arg.value === name || arg.value.startsWith(`${name}=`))),
  );
}
