import type { GuestConfigFacts, GuestDisk, GuestKind } from "./proxmox-api.ts";

/**
 * What one discovery read from a Proxmox node (jobs/proxmox/read-cluster.ts fills it over SSH;
 * apply-proxmox.ts turns it into the graph). Everything the cluster has, as the node saw it.
 */
export interface ClusterReading {
  /** The cluster's name; null for a standalone node. */
  cluster: string | null;
  /** The PVE node name of the node discovery ran on. */
  localNode: string;
  nodes: { name: string; ip: string | null; online: boolean }[];
  storages: { node: string; storage: string; type: string; shared: boolean }[];
  guests: DiscoveredGuest[];
  warnings: string[];
}

export interface DiscoveredGuest {
  kind: GuestKind;
  vmid: number;
  name: string;
  node: string;
  /** running, stopped, or unknown (the node is down). */
  status: string;
  tags: string[];
  /** null when the config could not be read (the node is offline): the previous value is kept. */
  disks: GuestDisk[] | null;
  /** ostype, agent, lock from its config; null when the config could not be read. */
  config: GuestConfigFacts | null;
}

/** The key discovered entities carry as `proxmox.cluster`: the cluster's name, or the standalone node's. */
export function clusterKey(reading: Pick<ClusterReading, "cluster" | "localNode">): string {
  return reading.cluster ?? reading.localNode;
}
