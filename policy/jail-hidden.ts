import type { JailGrant } from "./jail-grant.ts";

/**
 * Never a silent lie: what a jailed command tripped over that the jail hid from it — the network, a
 * Unix socket, a device node, the kernel log — read from what the command printed, so the result
 * says so in data and in words instead of passing an empty or partial answer off as the target's.
 * Pure: the worker hands the run's stderr, exit status, grants and network over.
 */
export const HIDDEN_KINDS = ["network", "socket", "device", "kernel_log"] as const;
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
const DEVICE_DENIED = ["Permission denied", "Operation not permitted"];
const KERNEL_LOG_SIGNS = ["read kernel buffer failed", "klogctl"];

export function hiddenByJail(input: {
  result: Run;
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
    const device = devicePath(line);
    if (
      device !== null &&
      DEVICE_DENIED.some((sign) => line.includes(sign)) &&
      !deviceGranted(input.grants, device)
    ) {
      add({ kind: "device", what: device, evidence: line });
    }
  }
  if (hidden.length === 0) return { hidden, note: null };
  const what = hidden.map((item) => item.what).join(", ");
  return {
    hidden,
    note: `the read-only jail hid ${what} from this command, so its output may be empty or incomplete: ask for it in a plan (once approved it runs unjailed), or name what it needs so its proof can grant it`,
  };
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
