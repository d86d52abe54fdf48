import { z } from "zod";

// The shapes `pvesh get <path> --output-format json` prints (the Proxmox VE API's return values,
// unwrapped from `data`), as far as discovery reads them. Loose objects: PVE adds fields per release.

const flag = z.union([z.number(), z.boolean()]).transform((value) => value === true || value === 1);
const vmid = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(Number);

/** GET /cluster/status: one `cluster` entry (when clustered) and one entry per node. */
export const clusterStatusSchema = z.array(
  z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("cluster"), name: z.string().min(1) }),
    z.looseObject({
      type: z.literal("node"),
      name: z.string().min(1),
      ip: z.string().optional(),
      local: flag.optional(),
      online: flag.optional(),
    }),
  ]),
);

/** GET /cluster/resources: nodes, guests (`lxc` / `qemu`) and storages, among other types. */
export const clusterResourceSchema = z.union([
  z.looseObject({ type: z.literal("node"), node: z.string().min(1), status: z.string().optional() }),
  z.looseObject({
    type: z.enum(["lxc", "qemu"]),
    vmid,
    node: z.string().min(1),
    name: z.string().optional(),
    status: z.string().optional(),
    tags: z.string().optional(),
    template: flag.optional(),
  }),
  z.looseObject({
    type: z.literal("storage"),
    node: z.string().min(1),
    storage: z.string().min(1),
    plugintype: z.string().optional(),
    shared: flag.optional(),
  }),
  z.looseObject({ type: z.string() }),
]);
export const clusterResourcesSchema = z.array(clusterResourceSchema);

/** GET /nodes/{node}/lxc and /nodes/{node}/qemu (lxc reports vmid as a string on older releases). */
export const nodeGuestsSchema = z.array(
  z.looseObject({
    vmid,
    name: z.string().optional(),
    status: z.string().optional(),
    tags: z.string().optional(),
  }),
);

/** GET /nodes/{node}/storage. */
export const nodeStoragesSchema = z.array(
  z.looseObject({ storage: z.string().min(1), type: z.string().min(1), shared: flag.optional() }),
);

/** GET /nodes/{node}/{lxc|qemu}/{vmid}/config: key → value; disks are `storage:volume,options`. */
export const guestConfigSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/** GET /nodes/{node}/{lxc|qemu}/{vmid}/snapshot: the snapshots and the `current` pseudo-entry. */
export const snapshotListSchema = z.array(
  z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    snaptime: z.number().optional(),
    parent: z.string().optional(),
  }),
);
export type SnapshotListEntry = z.infer<typeof snapshotListSchema>[number];

export type GuestKind = "lxc" | "qemu";

export interface GuestDisk {
  /** The config key: rootfs, mp0, scsi0, virtio1, efidisk0 … */
  key: string;
  storage: string;
  volume: string;
  format: "qcow2" | "raw" | "subvol" | "other";
}

const DISK_KEYS: Record<GuestKind, RegExp> = {
  lxc: /^(rootfs|mp\d+)$/,
  qemu: /^(scsi|virtio|sata|ide)\d+$|^(efidisk|tpmstate)\d+$/,
};

/**
 * The guest's volumes from its config: `local-zfs:subvol-101-disk-0,size=8G` → storage local-zfs.
 * CD-ROMs, empty drives and bind mounts (`/host/path,mp=/data`) are not disks PVE snapshots.
 */
export function guestDisks(kind: GuestKind, config: Record<string, string | number>): GuestDisk[] {
  const disks: GuestDisk[] = [];
  for (const [key, raw] of Object.entries(config)) {
    if (!DISK_KEYS[kind].test(key)) continue;
    const [volumeId = "", ...options] = String(raw).split(",");
    if (options.includes("media=cdrom") || volumeId === "none" || volumeId.startsWith("/")) continue;
    const colon = volumeId.indexOf(":");
    if (colon <= 0) continue;
    const volume = volumeId.slice(colon + 1);
    const formatOption = options.find((option) => option.startsWith("format="))?.slice("format=".length);
    disks.push({ key, storage: volumeId.slice(0, colon), volume, format: diskFormat(volume, formatOption) });
  }
  return disks.sort((a, b) => a.key.localeCompare(b.key));
}

function diskFormat(volume: string, option: string | undefined): GuestDisk["format"] {
  if (option === "qcow2" || volume.endsWith(".qcow2")) return "qcow2";
  if (option === "raw" || volume.endsWith(".raw")) return "raw";
  if (/(^|\/)subvol-/.test(volume)) return "subvol";
  return "other";
}

/** What discovery keeps of a guest's config besides its disks. */
export interface GuestConfigFacts {
  /**
   * The config's `ostype`: for containers the distribution PVE set the container up for (debian,
   * ubuntu, alpine, …, unmanaged), for VMs the OS family (l26, win11, win10, …, other).
   */
  ostype: string | null;
  /** VMs: whether the QEMU guest agent is enabled (`agent: 1` or `agent: enabled=1,…`); null for containers. */
  agent: boolean | null;
  /** A lock PVE holds on the guest (`backup` while vzdump runs, `snapshot`, `migrate` …). */
  lock: string | null;
}

export function guestFacts(kind: GuestKind, config: Record<string, string | number>): GuestConfigFacts {
  const text = (key: string) => (config[key] === undefined ? null : String(config[key]));
  return {
    ostype: text("ostype"),
    agent: kind === "qemu" ? agentEnabled(text("agent")) : null,
    lock: text("lock"),
  };
}

/** `agent: [enabled=]<0|1>[,fstrim_cloned_disks=<0|1>][,type=<virtio|isa>]` (qm.conf). */
function agentEnabled(value: string | null): boolean {
  if (value === null) return false;
  for (const part of value.split(",")) {
    const [key, setting] = part.includes("=") ? part.split("=", 2) : ["enabled", part];
    if (key === "enabled") return setting === "1";
  }
  return false;
}

/** PVE tags: `;`-separated (older releases also `,` or space), sorted. */
export function parseTags(tags: string | undefined): string[] {
  return (tags ?? "")
    .split(/[;, ]+/)
    .map((tag) => tag.trim())
    .filter(Boolean)
    .sort();
}
