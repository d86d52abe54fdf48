import { type JailGrant, type SocketService, unionGrants } from "../../policy/jail-grant.ts";
import { AF_INET, AF_INET6, AF_NETLINK, AF_UNIX, seccompProgramText } from "./jail-seccomp.ts";

/** The jail's bounds for one run (jail.bash applies them before the command starts). */
export interface JailLimits {
  /** Address space per process (RLIMIT_AS), MiB. */
  memoryMiB: number;
  /** Processes at once: the PID namespace's pid_max (Linux >= 6.14), RLIMIT_NPROC for a login that is not root. */
  processes: number;
  /** CPU seconds per process (RLIMIT_CPU). */
  cpuSeconds: number;
  /** The private scratch space (TMPDIR), MiB. */
  scratchMiB: number;
}

/** Enough for every daily diagnostic; small enough that a runaway read cannot take the machine. */
export const DEFAULT_JAIL_LIMITS: JailLimits = {
  memoryMiB: 2048,
  processes: 1024,
  cpuSeconds: 600,
  scratchMiB: 64,
};

/**
 * The sockets each grantable service listens on, as they appear in /proc/net/unix (bash patterns:
 * tmux's server socket is /tmp/tmux-<uid>/<name>).
 */
export const SOCKET_PATHS: Record<SocketService, readonly string[]> = {
  docker: ["/run/docker.sock", "/var/run/docker.sock"],
  podman: ["/run/podman/podman.sock", "/var/run/podman/podman.sock"],
  containerd: ["/run/containerd/containerd.sock", "/var/run/containerd/containerd.sock"],
  systemd: ["/run/systemd/private", "/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket"],
  dbus: ["/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket"],
  libvirt: ["/run/libvirt/libvirt-sock-ro", "/run/libvirt/virtqemud-sock-ro", "/run/libvirt/libvirt-sock"],
  chrony: ["/run/chrony/chronyd.sock", "/var/run/chrony/chronyd.sock"],
  tmux: ["/tmp/tmux-*/*"],
};

/**
 * The words after the command that tell jail.bash what to open for this run: exactly the grants,
 * nothing else. An `unjailed` grant never reaches the jail (the run goes outside it by name).
 */
export function jailSettings(grants: readonly JailGrant[], limits: Partial<JailLimits> = {}): string[] {
  const all = unionGrants(grants);
  if (all.some((grant) => grant.resource === "unjailed"))
    throw new RangeError("an unjailed grant runs outside the jail, not in it");
  const has = (resource: JailGrant["resource"]) => all.some((grant) => grant.resource === resource);
  const sockets = all.flatMap((grant) => (grant.resource === "socket" ? SOCKET_PATHS[grant.service] : []));
  const families = has("network") ? [AF_INET, AF_INET6, AF_NETLINK] : has("netlink") ? [AF_NETLINK] : [];
  // in a network namespace of its own (loopback down) these reach nothing, and tools open them for ioctls
  const withNet = families.length > 0 ? families : [AF_INET, AF_INET6, AF_NETLINK];
  const bounds = { ...DEFAULT_JAIL_LIMITS, ...limits };
  const words = [
    `net=${has("network") || has("netlink") ? "host" : "private"}`,
    `unix=${sockets.length > 0 ? 1 : 0}`,
    ...[...new Set(sockets)].map((path) => `keep=${path}`),
    ...all.flatMap((grant) => (grant.resource === "device" ? [`dev=${grant.path}`] : [])),
    ...(has("block_devices") ? ["blockdevs=1"] : []),
    ...(has("kernel_log") ? ["kmsg=1"] : []),
    ...(has("zfs") ? ["zfs=1"] : []),
    ...(has("process_info") ? ["ptrace=1"] : []),
    // ping's file capability may start it (it then uses an ICMP datagram socket): jail.bash
    ...(has("network") ? ["netraw=1"] : []),
    `mem=${whole(bounds.memoryMiB)}`,
    `procs=${whole(bounds.processes)}`,
    `cpu=${whole(bounds.cpuSeconds)}`,
    `scratch=${whole(bounds.scratchMiB)}`,
    `bpf=${seccompProgramText({ families: sockets.length > 0 ? [...withNet, AF_UNIX] : withNet })}`,
  ];
  return words;
}

function whole(value: number): number {
  if (!Number.isFinite(value) || value < 1)
    throw new RangeError(`a jail bound must be at least 1, got ${value}`);
  return Math.floor(value);
}
