import { createHash } from "node:crypto";
import { chown, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A tree of files the read-only jail tests aim at, instead of the real system: `etc/`, `var/log/`,
 * `home/` with a few files, owned by the user the jailed commands run as (so without the jail every
 * write would succeed). It lives under /var/lib, never under /tmp, /var/tmp or /dev/shm: those are
 * private tmpfs inside the jail and the jailed command would not see it.
 */
export interface ScratchTree {
  root: string;
  /** Every entry below the root with type, mode, owner, size, times and content hash, sorted. */
  snapshot(): Promise<string[]>;
  remove(): Promise<void>;
}

const FILES: Record<string, string> = {
  "etc/app.conf": "listen = 8080\nworkers = 4\n",
  "etc/hosts": "127.0.0.1 localhost\n",
  "var/log/app.log": "started\nserving\n",
  "home/.bash_history": "ls\n",
  "home/notes.txt": "b\na\nc\n",
};

export async function createScratchTree(owner: { uid: number; gid: number }): Promise<ScratchTree> {
  const base = "/var/lib";
  const root = await mkdtemp(join(base, "oikos-jail-scratch-"));
  for (const [path, text] of Object.entries(FILES)) {
    const file = join(root, path);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, text);
  }
  await chownTree(root, owner);
  return {
    root,
    snapshot: () => snapshotTree(root),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

async function chownTree(dir: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(dir, owner.uid, owner.gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(path, owner);
    else await chown(path, owner.uid, owner.gid);
  }
}

/** ctime included: chmod, chown and a same-content rewrite all change it. */
export async function snapshotTree(root: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const info = await lstat(dir);
    lines.push(describe(dir.slice(root.length) || "/", info, ""));
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const entry = await lstat(path);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink())
        lines.push(describe(path.slice(root.length), entry, await readlink(path)));
      else if (entry.isFile())
        lines.push(describe(path.slice(root.length), entry, hash(await readFile(path))));
      else lines.push(describe(path.slice(root.length), entry, "special")); // a fifo must not be read
    }
  };
  await walk(root);
  return lines;
}

function describe(
  path: string,
  info: { mode: number; uid: number; gid: number; size: number; mtimeMs: number; ctimeMs: number },
  content: string,
): string {
  return [
    path,
    info.mode.toString(8),
    info.uid,
    info.gid,
    info.size,
    info.mtimeMs,
    info.ctimeMs,
    content,
  ].join(" ");
}

function hash(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex").slice(0, 16);
}
