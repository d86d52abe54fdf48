import { createHash } from "node:crypto";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SshLab } from "./ssh-lab.ts";

/**
 * A fake host world for plan-preview tests: `apt-get`, `dpkg-query`, `docker`, `systemctl`, `pct`,
 * `qm` and `zfs` in a lab host's toolbox, all over one JSON file in the host's state directory
 * (preview-world.mjs). Read-only verbs only read it, mutating verbs write it: its hash is the oracle
 * of "the preview changed nothing".
 */
export interface PreviewWorldState {
  dpkg: Record<string, string>;
  aptCandidates: Record<string, string>;
  compose: {
    services: Record<string, { image?: string }>;
    hashes: Record<string, string>;
    containers: { Service: string; Image: string; State: string; Labels: string }[];
  };
  containers: Record<string, { image: string; state: string; mounts?: string }>;
  images: Record<string, { id: string; size: number }>;
  units: Record<string, { active: string; enabled: string; reverse: string[]; restarts?: number }>;
  guests: Record<string, { type: "lxc" | "qemu"; config: Record<string, string>; snapshots: string[] }>;
  zfs: Record<string, { used: number; clones?: string }>;
}

export interface PreviewWorld {
  file: string;
  read(): Promise<PreviewWorldState>;
  /** sha256 of the world file's bytes. */
  hash(): Promise<string>;
}

const SCRIPT = new URL("./preview-world.mjs", import.meta.url).pathname;
const TOOLS = ["apt-get", "dpkg-query", "docker", "systemctl", "pct", "qm", "zfs"];

export async function installPreviewWorld(
  lab: SshLab,
  hostName: string,
  initial: PreviewWorldState = homelabWorld(),
): Promise<PreviewWorld> {
  const dir = lab.host(hostName).stateDir;
  const file = join(dir, "preview-world.json");
  const script = join(dir, "preview-world.mjs");
  await writeFile(script, await readFile(SCRIPT, "utf8"), { mode: 0o644 });
  await writeFile(file, JSON.stringify(initial, null, 1));
  await chmod(file, 0o666);
  for (const tool of TOOLS) {
    await lab.writeTool(
      hostName,
      tool,
      `#!/bin/sh\nOIKOS_PREVIEW_WORLD='${file}' exec '${process.execPath}' '${script}' ${tool} "$@"\n`,
    );
  }
  return {
    file,
    read: async () => JSON.parse(await readFile(file, "utf8")) as PreviewWorldState,
    hash: async () =>
      createHash("sha256")
        .update(await readFile(file))
        .digest("hex"),
  };
}

export function homelabWorld(): PreviewWorldState {
  return {
    dpkg: { nginx: "1.22.1-9", openssl: "3.0.11-1", apache2: "2.4.57-2", bash: "5.2.15-2" },
    aptCandidates: {
      nginx: "1.22.1-9",
      openssl: "3.0.13-1",
      apache2: "2.4.57-2",
      bash: "5.2.15-2",
      htop: "3.2.2-2",
    },
    compose: {
      services: { web: { image: "nginx:1.27" }, db: { image: "postgres:16" } },
      hashes: { web: "bbbb", db: "dddd" },
      containers: [
        {
          Service: "web",
          Image: "nginx:1.25",
          State: "running",
          Labels: "com.docker.compose.config-hash=aaaa,com.docker.compose.project=app",
        },
        {
          Service: "db",
          Image: "postgres:16",
          State: "running",
          Labels: "com.docker.compose.config-hash=dddd,com.docker.compose.project=app",
        },
      ],
    },
    containers: {
      web: { image: "nginx:1.25", state: "running", mounts: "volume:web-data" },
      old: { image: "redis:6", state: "exited" },
    },
    images: { "redis:6": { id: "sha256:6e2f", size: 117_000_000 } },
    units: {
      "nfs-server.service": {
        active: "active",
        enabled: "enabled",
        reverse: ["nfs-kernel-server.service", "multi-user.target"],
      },
      "nginx.service": { active: "active", enabled: "enabled", reverse: ["multi-user.target"] },
    },
    guests: {
      "101": {
        type: "lxc",
        config: {
          hostname: "gitea",
          memory: "512",
          cores: "1",
          rootfs: "local-zfs:subvol-101-disk-0,size=8G",
          mp0: "local-zfs:subvol-101-disk-1,mp=/data,size=50G",
        },
        snapshots: ["before-upgrade"],
      },
      "200": {
        type: "qemu",
        config: {
          name: "win",
          memory: "4096",
          scsi0: "local-lvm:vm-200-disk-0,size=64G",
          ide2: "local:iso/virtio.iso,media=cdrom",
        },
        snapshots: [],
      },
    },
    zfs: {
      "tank/old": { used: 1_073_741_824 },
      "tank/old/a": { used: 536_870_912 },
      "tank/old@snap1": { used: 1_048_576 },
      "tank/keep": { used: 42 },
    },
  };
}
