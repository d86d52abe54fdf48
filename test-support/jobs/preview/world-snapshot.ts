import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";

/**
 * Every entry under some roots, as the differential lab compares them before and after a command
 * (issue #37): path, type, permission bits, owner, link count, device:inode, and the content's sha256
 * (a link: its target). Read as root, straight from the filesystem — not through oikos.
 */
export interface Entry {
  type: "file" | "dir" | "link" | "other";
  mode: number;
  uid: number;
  gid: number;
  nlink: number;
  inode: string;
  /** sha256 of a file's bytes; a link's target; "" otherwise. */
  content: string;
}

export type Snapshot = Map<string, Entry>;

export async function snapshotRoots(roots: readonly string[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const walk = async (path: string): Promise<void> => {
    const info = await lstat(path);
    const type = info.isFile()
      ? "file"
      : info.isDirectory()
        ? "dir"
        : info.isSymbolicLink()
          ? "link"
          : "other";
    const content =
      type === "file"
        ? createHash("sha256")
            .update(await readFile(path))
            .digest("hex")
        : type === "link"
          ? await readlink(path)
          : "";
    out.set(path, {
      type,
      mode: info.mode & 0o7777,
      uid: info.uid,
      gid: info.gid,
      nlink: info.nlink,
      inode: `${info.dev}:${info.ino}`,
      content,
    });
    if (type === "dir") for (const name of (await readdir(path)).sort()) await walk(join(path, name));
  };
  for (const root of roots) await walk(root);
  return out;
}

export type Change =
  | { path: string; kind: "added"; after: Entry }
  | { path: string; kind: "removed"; before: Entry }
  | { path: string; kind: "modified"; before: Entry; after: Entry; fields: (keyof Entry)[] };

const FIELDS: (keyof Entry)[] = ["type", "mode", "uid", "gid", "nlink", "inode", "content"];

export function changesBetween(before: Snapshot, after: Snapshot): Change[] {
  const out: Change[] = [];
  for (const [path, b] of before) {
    const a = after.get(path);
    if (!a) out.push({ path, kind: "removed", before: b });
    else {
      const fields = FIELDS.filter((field) => a[field] !== b[field]);
      // A directory's link count follows its subdirectories: not a change of its own.
      const own = b.type === "dir" && a.type === "dir" ? fields.filter((f) => f !== "nlink") : fields;
      if (own.length > 0) out.push({ path, kind: "modified", before: b, after: a, fields: own });
    }
  }
  for (const [path, a] of after) if (!before.has(path)) out.push({ path, kind: "added", after: a });
  return out;
}
