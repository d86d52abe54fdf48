import { createHash } from "node:crypto";
import type { IdentityFacts } from "./identity.ts";
import { isKernelPath, type ProbeView, privateMountAt } from "./mount-view.ts";
import type { DirFacts, NameFacts, StatFacts, Unseen } from "./name-facts.ts";
import type { FileAfter } from "./types.ts";

/**
 * What a file edit leaves behind, per name, predicted from resolved names (issue #37): which file's
 * content changes (a link followed or replaced), its type, mode and owner afterwards, what happens to
 * its other names (hard links), and the side files options make. One value feeds the card's text,
 * the fingerprint, the checks after the run and the differential lab's comparison.
 */

export interface FileOutcome {
  /** The physical path whose state changes. */
  path: string;
  /** The path as the command names it, when another (a link, `..`, a relative path). */
  written: string | null;
  before: StatFacts | null;
  beforeSha256: string | null;
  /** null: the name is gone afterwards. */
  after: FileAfter | null;
  /**
   * The inode's other names (hard links) when it has some: `content` — they change with it (written in
   * place); `link_count` — they keep the old content with one link fewer (replaced or removed).
   */
  otherNames: "content" | "link_count" | null;
  /** Said beside the change on the card (a link replaced, a backup, a moved source …). */
  notes: string[];
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Why a resolved name is not one the preview can show: kernel files, the jail's own mounts. `follow`:
 * the command goes through a final link (else only the name itself and its directory matter).
 */
export function unseenPath(facts: NameFacts, view: ProbeView, follow = true): string | null {
  for (const path of follow ? [facts.name, facts.resolved, facts.dir.path] : [facts.name, facts.dir.path]) {
    if (isKernelPath(path)) return `\`${facts.written}\` is not a regular file (it resolves to \`${path}\`)`;
    const mount = privateMountAt(view, path);
    if (mount !== null) {
      return `\`${facts.written}\` is in \`${mount}\`, which the read-only jail replaces with a private directory for its own commands, so the preview cannot see what the command will change there`;
    }
  }
  return null;
}

/** The file whose content a write changes: through a final link (`follow`) or the name itself. */
export interface WriteTarget {
  path: string;
  written: string | null;
  before: StatFacts | null;
  /** The name is a link that the write replaces with a regular file (sed -i, install, mv …). */
  replacesLink: { to: string } | null;
}

export function writeTarget(facts: NameFacts, follow: boolean, view: ProbeView): WriteTarget | Unseen {
  // sed -i on a link reads through it even where it replaces it: the link's target must be seen too.
  const unseen = unseenPath(facts, view, follow || facts.entry?.type === "link");
  if (unseen) return { unseen };
  const { entry, target } = facts;
  const written = facts.written === facts.name ? null : facts.written;
  if (entry === null) return { path: facts.name, written, before: null, replacesLink: null };
  if (entry.type === "link") {
    if (!follow) {
      if (target?.type !== "file") return { unseen: linkProblem(facts) };
      return { path: facts.name, written, before: entry, replacesLink: { to: facts.resolved } };
    }
    if (target === null) return { unseen: linkProblem(facts) };
    if (target.type !== "file") return { unseen: notAFile(facts.written, target) };
    return { path: facts.resolved, written: facts.written, before: target, replacesLink: null };
  }
  if (entry.type !== "file") return { unseen: notAFile(facts.written, entry) };
  return { path: facts.name, written, before: entry, replacesLink: null };
}

function linkProblem(facts: NameFacts): string {
  return `\`${facts.written}\` is a link to \`${facts.resolved}\`, which does not exist or which oikos cannot see, so what the command writes there is not previewed`;
}

function notAFile(written: string, stat: StatFacts): string {
  return stat.type === "dir" ? `\`${written}\` is a directory` : `\`${written}\` is not a regular file`;
}

/** Owner and group a new file gets in `dir` from `identity` (a set-group-ID directory gives its group). */
export function newOwner(dir: DirFacts, identity: IdentityFacts): { uid: number; gid: number | null } {
  return { uid: identity.uid, gid: dir.stat.mode & 0o2000 ? dir.stat.gid : identity.gid };
}

/** A new file's mode from the mode its creator asks for; null where a default ACL decides it. */
export function newMode(dir: DirFacts, requested: number, identity: IdentityFacts): number | null {
  return dir.acl ? null : requested & ~identity.umask & 0o7777;
}

/** Whether `identity` may write `file` (root may; the owner, group or others by their bits). */
export function mayWrite(file: StatFacts, identity: IdentityFacts): boolean {
  if (identity.uid === 0) return true;
  if (file.uid === identity.uid) return (file.mode & 0o200) !== 0;
  if (file.gid === identity.gid) return (file.mode & 0o020) !== 0;
  return (file.mode & 0o002) !== 0;
}
