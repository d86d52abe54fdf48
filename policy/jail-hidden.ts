import type { JailGrant } from "./jail-grant.ts";

/**
 * Never a silent lie: what a jailed command tripped over that the jail hid from it — the network, a
 * Unix socket, a device node, the kernel log, a capability — or where what it printed is the jail's
 * own view rather than the target's (the mount table, its own process id), read from what the
 * command printed, so the result says so in data and in words instead of passing an empty, partial
 * or jail-shaped answer off as the target's. Pure: the worker hands the run's output, exit status,
 * grants and network over.
 *
 *  - `network`, `socket`, `device`, `kernel_log`: not opened to this run (no grant);
 *  - `read_only_device`: a granted device the tool tried to open for writing (parted, mke2fs -n):
 *    the jail grants devices read-only;
 *  - `capability`: an operation that needs a capability the jail does not hold (EPERM outside any
 *    device: a netlink query that needs CAP_NET_ADMIN, a raw socket — ping where
 *    net.ipv4.ping_group_range leaves it no ICMP datagram socket —, a program whose file
 *    capabilities the bounding set would cut, which the kernel will not start);
 *  - `mount_table`: the tool printed the jail's own mounts (df, findmnt, mount, /proc/mounts):
 *    every mount read-only and nodev, and the jail's private scratch tmpfs (source `oikos-jail`);
 *  - `process_info`: another process's ptrace-protected files under /proc (`/proc/PID/exe`, `cwd`,
 *    `fd/`, `environ`): no jail can read them (the process_info grant), and tools say little
 *    (`readlink /proc/PID/cwd` exits 1 and prints nothing);
 *  - `own_pid`: the tool looked itself up in the machine's /proc by its pid in the jail's PID
 *    namespace (procps: "lookup self") and found another process or none.
 */
export const HIDDEN_KINDS = [
  "network",
  "socket",
  "device",
  "kernel_log",
  "read_only_device",
  "capability",
  "mount_table",
  "own_pid",
  "process_info",
] as const;
export type HiddenKind = (typeof HIDDEN_KINDS)[number];

export interface HiddenResource {
  kind: HiddenKind;
  /** What exactly: a device path, "a Unix socket", "the network". */
  what: string;
  /** The line of the command's output that shows it (trimmed). */
  evidence: string;
}

interface Run {
  exitCode: number | null;
  stderr: string;
  stdout: string;
}

/** Texts tools print (glibc strerror, curl, getaddrinfo, systemd, docker, virsh) when the jail hid what they reach for. */
const NETWORK_SIGNS = [
  "Network is unreachable",
  "Temporary failure in name resolution",
  "Could not resolve host",
  "No address associated with hostname",
];
const SOCKET_SIGNS = [
  "Address family not supported by protocol",
  "Failed to connect to bus",
  "Failed to get D-Bus connection",
  "Cannot connect to the Docker daemon",
  "failed to connect to the hypervisor",
];
const DEVICE_DENIED = ["Permission denied", "Operation not permitted", "no read permission"];
const KERNEL_LOG_SIGNS = ["read kernel buffer failed", "klogctl"];
const CAPABILITY_DENIED = "Operation not permitted";
const OWN_PID_SIGNS = ["lookup self"];
/** Another process's files under /proc that reading needs ptrace access to (PTRACE_MODE_READ). */
const PROCESS_FILE =
  /^\/proc\/[0-9]+\/(exe|cwd|root|fd|fdinfo|environ|maps|smaps|smaps_rollup|mem|stack|syscall|io|map_files|auxv|pagemap|personality|timers|ns)(\/|$)/;
/** The source name of the jail's scratch tmpfs (jail.bash): a mount table that lists it is the jail's. */
export const JAIL_SCRATCH_SOURCE = "oikos-jail";
/** Mount options every mount shows inside the jail (jail.bash remounts each one ro,nodev). */
const JAIL_MOUNT_OPTIONS = /(^|\s)ro,nodev(,|\s|$)/;

export function hiddenByJail(input: {
  result: Run;
  /**
   * The command as it ran: a device it names that was not granted, when it exited 0 and printed
   * nothing at all (blkid's answer for a device it could not open), was hidden though no line says so.
   */
  command?: string;
  grants: readonly JailGrant[];
  /** The jail's network: its own (`private`) or the host's (a network or netlink grant). */
  net: "private" | "host";
}): { hidden: HiddenResource[]; note: string | null } {
  const granted = (resource: JailGrant["resource"]) =>
    input.grants.some((grant) => grant.resource === resource);
  const hidden: HiddenResource[] = [];
  const seen = new Set<string>();
  const add = (item: HiddenResource): void => {
    const key = `${item.kind}:${item.what}`;
    if (seen.has(key)) return;
    seen.add(key);
    hidden.push(item);
  };
  const lines = input.result.stderr.split("\n").slice(0, 200);
  for (const raw of lines) {
    const line = raw.trim().slice(0, 300);
    if (line === "") continue;
    if (KERNEL_LOG_SIGNS.some((sign) => line.includes(sign))) {
      add({ kind: "kernel_log", what: "the kernel log", evidence: line });
      continue;
    }
    if (!granted("network") && input.net === "private" && NETWORK_SIGNS.some((sign) => line.includes(sign))) {
      add({ kind: "network", what: "the network", evidence: line });
      continue;
    }
    if (!granted("socket") && SOCKET_SIGNS.some((sign) => line.includes(sign))) {
      add({ kind: "socket", what: "Unix sockets (D-Bus, docker.sock …)", evidence: line });
      continue;
    }
    if (OWN_PID_SIGNS.some((sign) => line.includes(sign))) {
      add({ kind: "own_pid", what: "its own process (the jail's PID namespace)", evidence: line });
      continue;
    }
    if (
      line.includes("Permission denied") &&
      !input.grants.some((grant) => grant.resource === "process_info") &&
      processFile(line) !== null
    ) {
      add({ kind: "process_info", what: "other processes' files under /proc", evidence: line });
      continue;
    }
    const device = devicePath(line);
    if (device !== null && DEVICE_DENIED.some((sign) => line.includes(sign))) {
      if (deviceGranted(input.grants, device))
        add({ kind: "read_only_device", what: `${device} (granted read-only)`, evidence: line });
      else add({ kind: "device", what: device, evidence: line });
      continue;
    }
    if (line.includes(CAPABILITY_DENIED))
      add({ kind: "capability", what: "a capability the jail does not hold", evidence: line });
  }
  // devices the command names that were not granted: hidden when it printed nothing at all and
  // exited 0 (blkid), or when its answer on stdout says it could not read one (file -s)
  const named = (input.command ?? "")
    .split(/[\s=<>|;&'"]+/)
    .map(devicePath)
    .filter((device): device is string => device !== null && !deviceGranted(input.grants, device));
  const silent =
    input.result.exitCode === 0 && input.result.stdout.trim() === "" && input.result.stderr.trim() === "";
  // a process file the command names, and nothing printed: readlink's silent failure
  const procWords = (input.command ?? "").split(/[\s=<>|;&'"]+/).filter((word) => PROCESS_FILE.test(word));
  if (procWords.length > 0 && input.result.stdout.trim() === "" && input.result.exitCode !== 0)
    add({
      kind: "process_info",
      what: "other processes' files under /proc",
      evidence: `${procWords[0]}: it failed and printed nothing`,
    });
  for (const device of named) {
    const said = input.result.stdout
      .split("\n")
      .slice(0, 2000)
      .find((line) => line.includes(device) && DEVICE_DENIED.some((sign) => line.includes(sign)));
    if (silent) add({ kind: "device", what: device, evidence: "it exited 0 and printed nothing" });
    else if (said !== undefined) add({ kind: "device", what: device, evidence: said.trim().slice(0, 300) });
  }
  const table = input.result.stdout
    .split("\n")
    .slice(0, 2000)
    .find((line) => line.split(/\s+/).includes(JAIL_SCRATCH_SOURCE) || JAIL_MOUNT_OPTIONS.test(line));
  if (table !== undefined)
    add({ kind: "mount_table", what: "the mount table", evidence: table.trim().slice(0, 300) });
  return { hidden, note: noteOf(hidden) };
}

/** The words of what was found: what the jail hid, what it showed of its own, and the next step. */
function noteOf(hidden: readonly HiddenResource[]): string | null {
  if (hidden.length === 0) return null;
  const of = (...kinds: HiddenKind[]) =>
    hidden.filter((item) => kinds.includes(item.kind)).map((item) => item.what);
  const parts: string[] = [];
  const hid = of("network", "socket", "device", "kernel_log");
  if (hid.length > 0) parts.push(`the read-only jail hid ${hid.join(", ")} from this command`);
  const readOnly = of("read_only_device");
  if (readOnly.length > 0)
    parts.push(`the jail opens ${readOnly.join(", ")} read-only and the tool asked to write it`);
  if (of("capability").length > 0) parts.push("the tool needed a capability the jail does not hold");
  if (of("mount_table").length > 0)
    parts.push(
      `the mounts it printed are the jail's own: every mount reads ro,nodev and the ${JAIL_SCRATCH_SOURCE} tmpfs is the jail's scratch space, not the target's`,
    );
  if (of("process_info").length > 0)
    parts.push(
      "the jail cannot read other processes' files under /proc (their executable, working directory, descriptors, environment)",
    );
  if (of("own_pid").length > 0)
    parts.push(
      "it looked itself up in /proc by its pid inside the jail's PID namespace and could not find itself",
    );
  return `${parts.join("; ")}: its output may be empty, incomplete or the jail's rather than the target's — ask for it in a plan (once approved it runs unjailed, exactly as approved), or name what it needs so its proof can grant it`;
}

/** The first /proc/PID/… word of a line naming a ptrace-protected file. */
function processFile(line: string): string | null {
  for (const word of line.split(/\s+/)) {
    const clean = word.replace(/^['"‘`(]+|['"’`):,]+$/g, "");
    if (PROCESS_FILE.test(clean)) return clean;
  }
  return null;
}

/** The first /dev/… word of a line, without the quotes and colons tools put around it. */
function devicePath(line: string): string | null {
  for (const word of line.split(/\s+/)) {
    const clean = word.replace(/^['"‘`(]+|['"’`):,]+$/g, "");
    if (
      /^\/dev\/[A-Za-z0-9._/+:-]+$/.test(clean) &&
      !/^\/dev\/(null|zero|full|u?random|tcp\/|udp\/)/.test(clean)
    )
      return clean;
  }
  return null;
}

function deviceGranted(grants: readonly JailGrant[], path: string): boolean {
  return grants.some(
    (grant) =>
      (grant.resource === "device" && grant.path === path) ||
      grant.resource === "block_devices" ||
      (grant.resource === "zfs" && path === "/dev/zfs") ||
      (grant.resource === "kernel_log" && path === "/dev/kmsg"),
  );
}
