/**
 * Can this target run these commands? Driven by the target's entity type and attributes:
 * Proxmox tools only on Proxmox hosts, docker only where attributes say docker, block-device
 * tools not inside containers. A refusal names a target that can run it when one is known.
 */

import { LVM_REPORTS } from "./rules/storage.ts";

export interface TargetFacts {
  slug: string;
  /** Entity type: `host`, `lxc`, `vm`, `service`, `local` … */
  type: string;
  attributes: Readonly<Record<string, unknown>>;
  /** The entity this one runs on (`host:hubris` for `vm:zimaos`), if known. */
  parentSlug?: string;
}

export type TargetCheck =
  | { ok: true }
  | { ok: false; code: "wrong_target"; reason: string; nextStep: string; suggestedTarget: string | null };

interface Capability {
  /** Command names this capability covers. */
  commands: readonly string[];
  /** "`qm` is a Proxmox host command" — completes the refusal. */
  describe: string;
  /** Where the commands can run. */
  canRun(target: TargetFacts): boolean;
  /** Hint when no capable target is known. */
  whereTo: string;
}

const isTrue = (value: unknown) => value === true || value === "true" || value === "yes";

export const CAPABILITIES: readonly Capability[] = [
  {
    commands: [
      "qm",
      "pct",
      "pvesh",
      "pvecm",
      "vzdump",
      "qmrestore",
      "pvesm",
      "pveam",
      "ha-manager",
      "pvenode",
      "pveceph",
      "pve-firewall",
      "pvesr",
      "pveum",
      "pveversion",
      "pveperf",
      "pvereport",
    ],
    describe: "is a Proxmox host command",
    canRun: (t) => t.type === "host" && t.attributes.proxmox !== false,
    whereTo: "the Proxmox host that owns this guest",
  },
  {
    commands: ["docker", "docker-compose"],
    describe: "needs Docker, and this target's attributes do not say Docker is present",
    canRun: (t) => isTrue(t.attributes.docker),
    whereTo:
      "a target whose attributes include docker: true (or record docker: true on this one after checking `command -v docker`)",
  },
  {
    commands: ["podman", "podman-compose"],
    describe: "needs Podman, and this target's attributes do not say Podman is present",
    canRun: (t) => isTrue(t.attributes.podman),
    whereTo: "a target whose attributes include podman: true",
  },
  {
    commands: ["kubectl", "helm"],
    describe: "needs a Kubernetes client, and this target's attributes do not say Kubernetes is present",
    canRun: (t) => isTrue(t.attributes.kubernetes) || isTrue(t.attributes.k8s),
    whereTo: "a target whose attributes include kubernetes: true",
  },
  {
    commands: ["zpool", "zfs"],
    describe: "needs ZFS, which containers cannot reach",
    canRun: (t) =>
      t.type === "lxc" ? isTrue(t.attributes.zfs) : t.type !== "service" && t.attributes.zfs !== false,
    whereTo: "the host that owns the pool",
  },
  {
    commands: [
      ...LVM_REPORTS,
      "lvcreate",
      "lvextend",
      "lvresize",
      "lvremove",
      "vgremove",
      "pvremove",
      "pvcreate",
      "vgcreate",
      "lvreduce",
      "mdadm",
      "fdisk",
      "sfdisk",
      "parted",
      "sgdisk",
      "wipefs",
      "mkfs",
      "mkfs.ext4",
      "mkfs.xfs",
      "blkdiscard",
      "smartctl",
      "hdparm",
      "nvme",
      "cryptsetup",
    ],
    describe: "works on block devices, which a container cannot reach",
    canRun: (t) => t.type !== "lxc" && t.type !== "service",
    whereTo: "the host or VM that owns the disks",
  },
  {
    commands: ["virsh"],
    describe: "needs libvirt",
    canRun: (t) => isTrue(t.attributes.libvirt),
    whereTo: "a target whose attributes include libvirt: true",
  },
];

const BY_COMMAND = new Map<string, Capability>();
for (const capability of CAPABILITIES)
  for (const command of capability.commands) BY_COMMAND.set(command, capability);

/**
 * Checks every command that runs on the target itself (`classification.commands`: wrappers
 * unwrapped, commands inside `ssh`/`pct exec`/`docker exec` excluded).
 */
export function checkTarget(
  command: { commands: readonly string[] },
  target: TargetFacts,
  candidates: readonly TargetFacts[] = [],
): TargetCheck {
  for (const name of command.commands) {
    const capability = BY_COMMAND.get(name);
    if (!capability || capability.canRun(target)) continue;
    const better = pickCandidate(capability, target, candidates);
    const lead = `\`${name}\` ${capability.describe}`;
    if (better) {
      const relation = better.slug === target.parentSlug ? `, which hosts ${target.slug}` : "";
      return {
        ok: false,
        code: "wrong_target",
        reason: `${lead}; ${target.slug} (${target.type}) cannot run it`,
        nextStep: `run it on ${better.slug}${relation}`,
        suggestedTarget: better.slug,
      };
    }
    return {
      ok: false,
      code: "wrong_target",
      reason: `${lead}; ${target.slug} (${target.type}) cannot run it`,
      nextStep: `run it on ${capability.whereTo}; look up ${target.slug}'s relationships (get_entity) to find it`,
      suggestedTarget: null,
    };
  }
  return { ok: true };
}

function pickCandidate(
  capability: Capability,
  target: TargetFacts,
  candidates: readonly TargetFacts[],
): TargetFacts | null {
  const able = candidates.filter(
    (candidate) => candidate.slug !== target.slug && capability.canRun(candidate),
  );
  return (
    able.find((candidate) => candidate.slug === target.parentSlug) ??
    able.find((candidate) => candidate.parentSlug !== undefined && candidate.parentSlug === target.slug) ??
    able.find((candidate) => candidate.parentSlug === target.parentSlug && candidate.type === target.type) ??
    able.find((candidate) => target.parentSlug !== undefined && candidate.parentSlug === target.parentSlug) ??
    able[0] ??
    null
  );
}
