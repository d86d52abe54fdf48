import { chmod, chown, lchown, link, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Owner, WorldItem } from "./differential-cases.ts";

/**
 * A differential case's world, made as root: $S under /var/lib (what the jail shows), $T, $V, $M in
 * the real /tmp, /var/tmp and /dev/shm (what the jail of today replaces with private ones).
 */
export interface CaseWorld {
  roots: Record<"S" | "T" | "V" | "M", string>;
  /** `$S/etc` → the real path. */
  path(template: string): string;
  make(items: readonly WorldItem[]): Promise<void>;
  remove(): Promise<void>;
}

export async function createCaseWorld(login: { uid: number; gid: number }): Promise<CaseWorld> {
  const roots = {
    S: await mkdtemp("/var/lib/oikos-diff-"),
    T: await mkdtemp("/tmp/oikos-diff-"),
    V: await mkdtemp("/var/tmp/oikos-diff-"),
    M: await mkdtemp("/dev/shm/oikos-diff-"),
  };
  const ids = (owner: Owner | undefined) => (owner === "root" ? { uid: 0, gid: 0 } : login);
  for (const root of Object.values(roots)) {
    await chmod(root, 0o755);
    await chown(root, login.uid, login.gid);
  }
  const path = (template: string) =>
    template.replace(/\$([STVM])/g, (_, key: keyof typeof roots) => roots[key]);
  const parent = async (file: string) => {
    const dir = dirname(file);
    const made = await mkdir(dir, { recursive: true });
    if (made !== undefined) {
      // Directories made on the way belong to the login, like the rest of the tree.
      for (let d = dir; d.length >= made.length; d = dirname(d)) await chown(d, login.uid, login.gid);
    }
  };
  return {
    roots,
    path,
    async make(items) {
      for (const item of items) {
        if ("file" in item) {
          const file = path(item.file);
          await parent(file);
          await writeFile(file, item.text);
          await chmod(file, item.mode ?? 0o644);
          await chown(file, ids(item.owner).uid, ids(item.group ?? item.owner).gid);
        } else if ("dir" in item) {
          const dir = path(item.dir);
          await parent(join(dir, "x"));
          await chown(dir, ids(item.owner).uid, ids(item.group ?? item.owner).gid);
          await chmod(dir, item.mode ?? 0o755);
        } else if ("link" in item) {
          const name = path(item.link);
          await parent(name);
          await symlink(path(item.to), name);
          await lchown(name, login.uid, login.gid);
        } else {
          const name = path(item.hardlink);
          await parent(name);
          await link(path(item.of), name);
        }
      }
    },
    async remove() {
      for (const root of Object.values(roots)) await rm(root, { recursive: true, force: true });
    },
  };
}
