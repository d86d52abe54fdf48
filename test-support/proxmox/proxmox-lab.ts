/**
 * A simulated Proxmox VE cluster on lab hosts (test-support/sshd): every node is a real loopback sshd
 * whose toolbox has `pvesh`, `pct`, `qm` and `zfs` shims over fake-pve.mjs, all sharing one cluster
 * state file, so a guest moved from one node to another is seen moved by every node.
 *
 *   const lab = await startSshLab({ hosts: [{ name: "pve1" }, { name: "pve2" }] });
 *   const cluster = await installProxmoxCluster(lab, { pve1: "pve1", pve2: "pve2" }, homelabCluster());
 *   await cluster.update((state) => { state.guests["101"]!.node = "pve2"; });
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SshLab } from "../sshd/ssh-lab.ts";

const FAKE_PVE = new URL("./fake-pve.mjs", import.meta.url).pathname;

export interface FakeStorage {
  /** The storage plugin, as PVE names it: zfspool, lvmthin, lvm, rbd, dir, nfs, btrfs, cifs… */
  type: string;
  content: string;
  shared?: boolean;
  /** Nodes that have it; all when absent. */
  nodes?: string[];
}

export interface FakeSnapshot {
  name: string;
  description?: string;
  /** Unix seconds. */
  snaptime: number;
  parent?: string;
}

export interface FakeGuest {
  type: "lxc" | "qemu";
  node: string;
  name: string;
  status: "running" | "stopped";
  tags?: string;
  /** As `pvesh get /nodes/{node}/{type}/{vmid}/config` returns it (rootfs, mp0, scsi0, ostype, agent …). */
  config: Record<string, string | number>;
  snapshots?: FakeSnapshot[];
  /** The snapshot the current state derives from (PVE's `parent` of `current`); default the newest. */
  parent?: string;
  rollbacks?: number;
  /** A PVE lock (`backup` while vzdump runs): changes are refused with "CT is locked (backup)". */
  lock?: string;
  /**
   * What runs inside (a lab fixture, not PVE config): `gnu` (default, the lab host's programs),
   * `busybox` (Alpine-like: busybox applets, no bash), `windows` (cmd.exe through the agent), `none`.
   */
  userland?: "gnu" | "busybox" | "windows" | "none";
}

export interface FakeDataset {
  node: string;
  snapshots: { name: string; creation: number }[];
  /** A real directory on the lab host: its files are what a snapshot keeps and a rollback restores. */
  mountpoint?: string;
  /** Default true when there is a mountpoint. */
  mounted?: boolean;
  rollbacks?: number;
}

export interface ClusterState {
  /** The cluster's name; without one every node is standalone (`pvecm create` sets it). */
  cluster?: string;
  /** `member: false`: a standalone node that has not joined the cluster (yet: `pvecm add`). */
  nodes: Record<string, { status?: "online" | "offline"; ip?: string; member?: boolean }>;
  storage: Record<string, FakeStorage>;
  /** By vmid. */
  guests: Record<string, FakeGuest>;
  /** Datasets `zfs` knows, by name. */
  datasets?: Record<string, FakeDataset>;
  /** Datasets whose next `zfs snapshot` fails (out of space). */
  failZfsSnapshot?: string[];
  /** vmids whose next snapshot fails (out of space). */
  failSnapshot?: number[];
  /** How long a `vzdump` holds the guest's backup lock (seconds, default 1). */
  vzdumpSeconds?: number;
}

/** A small homelab: two nodes, ZFS / LVM-thin / dir / NFS storage, containers and VMs on each kind. */
export function homelabCluster(): ClusterState {
  return {
    cluster: "homelab",
    nodes: { pve1: {}, pve2: {} },
    storage: {
      local: { type: "dir", content: "iso,vztmpl,backup,rootdir,images" },
      "local-zfs": { type: "zfspool", content: "images,rootdir" },
      "local-lvm": { type: "lvmthin", content: "images,rootdir" },
      nfs: { type: "nfs", content: "images,rootdir,backup", shared: true },
    },
    guests: {
      "101": {
        type: "lxc",
        node: "pve1",
        name: "gitea",
        status: "running",
        tags: "git;prod",
        config: { hostname: "gitea", rootfs: "local-zfs:subvol-101-disk-0,size=8G", memory: 1024 },
      },
      "102": {
        type: "lxc",
        node: "pve1",
        name: "wiki",
        status: "stopped",
        config: { hostname: "wiki", rootfs: "local-lvm:vm-102-disk-0,size=4G" },
      },
      "103": {
        type: "lxc",
        node: "pve2",
        name: "scratch",
        status: "running",
        config: { hostname: "scratch", rootfs: "local:103/vm-103-disk-0.raw,size=4G" },
      },
      "200": {
        type: "qemu",
        node: "pve2",
        name: "win11",
        status: "running",
        tags: "desktop",
        config: {
          name: "win11",
          scsi0: "nfs:200/vm-200-disk-0.qcow2,size=64G",
          ide2: "local:iso/win11.iso,media=cdrom",
          agent: 1,
        },
      },
      "201": {
        type: "qemu",
        node: "pve2",
        name: "router",
        status: "running",
        config: { name: "router", virtio0: "nfs:201/vm-201-disk-0.raw,size=2G", agent: 1 },
      },
    },
    datasets: { "tank/media": { node: "pve1", snapshots: [{ name: "weekly-1", creation: 1_700_000_000 }] } },
  };
}

/**
 * A homelab before its second node: pve1 standalone (no cluster yet) with Debian containers, an
 * Alpine container (busybox, no bash), a Windows VM and a Linux VM; pve2 installed but standalone and
 * empty, ready to `pvecm add pve1` once pve1 ran `pvecm create`.
 */
export function standaloneHomelab(): ClusterState {
  return {
    nodes: { pve1: {}, pve2: {} },
    storage: {
      "local-zfs": { type: "zfspool", content: "images,rootdir" },
      "local-lvm": { type: "lvmthin", content: "images,rootdir" },
    },
    guests: {
      "101": {
        type: "lxc",
        node: "pve1",
        name: "gitea",
        status: "running",
        config: { hostname: "gitea", ostype: "debian", rootfs: "local-zfs:subvol-101-disk-0,size=8G" },
      },
      "102": {
        type: "lxc",
        node: "pve1",
        name: "pihole",
        status: "running",
        config: { hostname: "pihole", ostype: "debian", rootfs: "local-lvm:vm-102-disk-0,size=4G" },
      },
      "103": {
        type: "lxc",
        node: "pve1",
        name: "scratch",
        status: "stopped",
        config: { hostname: "scratch", ostype: "debian", rootfs: "local-lvm:vm-103-disk-0,size=4G" },
      },
      "104": {
        type: "lxc",
        node: "pve1",
        name: "dns",
        status: "running",
        userland: "busybox",
        config: { hostname: "dns", ostype: "alpine", rootfs: "local-zfs:subvol-104-disk-0,size=2G" },
      },
      "200": {
        type: "qemu",
        node: "pve1",
        name: "win11",
        status: "running",
        userland: "windows",
        config: { name: "win11", ostype: "win11", agent: 1, scsi0: "local-lvm:vm-200-disk-0,size=64G" },
      },
      "201": {
        type: "qemu",
        node: "pve1",
        name: "router",
        status: "running",
        config: {
          name: "router",
          ostype: "l26",
          agent: "enabled=1",
          scsi0: "local-lvm:vm-201-disk-0,size=8G",
        },
      },
    },
  };
}

export interface ProxmoxCluster {
  root: string;
  read(): Promise<ClusterState>;
  update(change: (state: ClusterState) => void): Promise<ClusterState>;
  /** Every toolbox call so far: node, tool and arguments. */
  calls(): Promise<{ node: string; tool: string; args: string[] }[]>;
  /** The simulated guest filesystem (a directory pct exec runs in). */
  guestDir(vmid: number): string;
  stop(): Promise<void>;
}

/**
 * Installs the fake toolbox on each lab host (lab host name → the PVE node it plays) over one shared
 * cluster state. The state directory is world-writable: the lab user's sessions write it.
 */
export async function installProxmoxCluster(
  lab: SshLab,
  nodes: Record<string, string>,
  initial: ClusterState,
): Promise<ProxmoxCluster> {
  const root = await mkdtemp(join(tmpdir(), "oikos-pve-"));
  await chmod(root, 0o777);
  for (const dir of ["guests", "snapshots", "zfs-snapshots"]) {
    await mkdir(join(root, dir), { mode: 0o777 });
    await chmod(join(root, dir), 0o777);
  }
  const stateFile = join(root, "cluster.json");
  const write = async (state: ClusterState) => {
    await writeFile(stateFile, JSON.stringify(state, null, 1));
    await chmod(stateFile, 0o666);
  };
  await write(initial);
  // a copy inside the state directory: the lab user may not be able to read the source tree
  const fakePve = join(root, "fake-pve.mjs");
  await writeFile(fakePve, await readFile(FAKE_PVE, "utf8"), { mode: 0o644 });
  await writeFile(join(root, "calls.jsonl"), "");
  await chmod(join(root, "calls.jsonl"), 0o666);
  for (const vmid of Object.keys(initial.guests)) {
    await mkdir(join(root, "guests", vmid), { mode: 0o777 });
    await chmod(join(root, "guests", vmid), 0o777);
  }
  for (const [hostName, node] of Object.entries(nodes)) {
    for (const tool of ["pvesh", "pct", "qm", "zfs", "pvecm", "vzdump"]) {
      const shim = `#!/bin/sh\nOIKOS_PVE_ROOT='${root}' OIKOS_PVE_NODE='${node}' exec '${process.execPath}' '${fakePve}' ${tool} "$@"\n`;
      await lab.writeTool(hostName, tool, shim);
    }
  }
  const read = async () => JSON.parse(await readFile(stateFile, "utf8")) as ClusterState;
  return {
    root,
    read,
    async update(change) {
      const state = await read();
      change(state);
      await write(state);
      return state;
    },
    async calls() {
      const text = await readFile(join(root, "calls.jsonl"), "utf8");
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { node: string; tool: string; args: string[] });
    },
    guestDir: (vmid) => join(root, "guests", String(vmid)),
    stop: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A cluster of `count` guests over two nodes (containers on ZFS and VMs on LVM-thin, alternating,
 * most of them running): the size a discovery benchmark reads.
 */
export function manyGuestsCluster(count: number): ClusterState {
  const guests: Record<string, FakeGuest> = {};
  for (let i = 0; i < count; i++) {
    const vmid = 300 + i;
    const lxc = i % 2 === 0;
    guests[String(vmid)] = {
      type: lxc ? "lxc" : "qemu",
      node: i % 4 < 2 ? "pve1" : "pve2",
      name: `guest${i}`,
      status: i % 5 === 4 ? "stopped" : "running",
      config: lxc
        ? { hostname: `guest${i}`, ostype: "debian", rootfs: `local-zfs:subvol-${vmid}-disk-0,size=8G` }
        : { name: `guest${i}`, ostype: "l26", agent: 1, scsi0: `local-lvm:vm-${vmid}-disk-0,size=32G` },
    };
  }
  return {
    cluster: "homelab",
    nodes: { pve1: {}, pve2: {} },
    storage: {
      "local-zfs": { type: "zfspool", content: "images,rootdir" },
      "local-lvm": { type: "lvmthin", content: "images,rootdir" },
    },
    guests,
  };
}
