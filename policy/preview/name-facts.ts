import { type ProbeResult, shellQuote } from "./probe.ts";

/**
 * Names resolved as the kernel resolves them (issue #37), before a preview names, groups or
 * fingerprints them: the directory part physically (`cd -P`: every link and `..` followed, and
 * searchable by who looks, else nothing below it can be told "missing"), the final name both as
 * itself (`stat`) and followed (`stat -L`, `realpath -m`). Two spellings of one file (a directory
 * link, `..`, a hard link) resolve to one place, one device and inode.
 */

export type FileType = "file" | "dir" | "link" | "other";

/**
 * `stat -c '%f %u %g %h %d %i %s'`: what a name is. `mode` keeps the permission bits (07777); an
 * owner the probe's user namespace does not map is null (unknown), never the overflow id it reads as.
 */
export interface StatFacts {
  type: FileType;
  mode: number;
  uid: number | null;
  gid: number | null;
  nlink: number;
  /** device:inode — one file, whatever its names. */
  inode: string;
  size: number;
}

export interface DirFacts {
  /** The physical path (`pwd -P`). */
  path: string;
  stat: StatFacts;
  /** `ls -ld` shows an access control list: a new file's mode is then the ACL's, not the umask's. */
  acl: boolean;
}

/** One name as the target resolves it. */
export interface NameFacts {
  /** The path as the command names it (after the shell's expansion). */
  written: string;
  /** The physical directory that holds the name. */
  dir: DirFacts;
  /** dir + "/" + the last component: the name itself, a final link not followed. */
  name: string;
  /** `lstat`: null when there is no such name. */
  entry: StatFacts | null;
  /** `stat` through links: null when the name is missing, dangling or its target cannot be seen. */
  target: StatFacts | null;
  /** `realpath -m`: the name with every link followed. */
  resolved: string;
}

export type Unseen = { unseen: string };

const STAT_FORMAT = "%f %u %g %h %d %i %s";

/** Owners that read as the overflow ids in the probe's namespace are unknown (null). */
export function forgetUnmappedOwners(
  names: readonly NameFacts[],
  overflow: { uid: number; gid: number },
): NameFacts[] {
  const forget = (stat: StatFacts | null): StatFacts | null =>
    stat === null
      ? null
      : {
          ...stat,
          uid: stat.uid === overflow.uid ? null : stat.uid,
          gid: stat.gid === overflow.gid ? null : stat.gid,
        };
  return names.map((name) => ({
    ...name,
    dir: { ...name.dir, stat: forget(name.dir.stat) as StatFacts },
    entry: forget(name.entry),
    target: forget(name.target),
  }));
}

/** A path split where the kernel splits it: the directory to walk, and the last name. */
export function splitPath(path: string): { dir: string; base: string } | Unseen {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const slash = trimmed.lastIndexOf("/");
  const base = slash < 0 ? trimmed : trimmed.slice(slash + 1);
  const dir = slash < 0 ? "." : slash === 0 ? "/" : trimmed.slice(0, slash);
  if (base === "" || base === "." || base === "..") return { unseen: `\`${path}\` does not name a file` };
  if (/[\n\r]/.test(path)) return { unseen: "a path with a line break is not previewed" };
  return { dir, base };
}

/** `cd` ignores CDPATH only for names that start with `/` or `.`. */
function cdWord(dir: string): string {
  return shellQuote(dir.startsWith("/") || dir.startsWith(".") ? dir : `./${dir}`);
}

/**
 * One probe for several names in one directory (builtins and coreutils, all read-only): the
 * directory's physical path, its stat and `ls -ld`; then per name `stat`, `stat -L` and
 * `realpath -m`. A failed `cd` (missing, not a directory, not searchable) fails the probe.
 */
export function nameFactsProbe(dir: string, bases: readonly string[]): string {
  const perName = bases.map((base) => {
    const q = shellQuote(base);
    return [
      `{ stat -c 'E ${STAT_FORMAT}' -- ${q} 2>/dev/null || echo 'E -'; }`,
      `{ stat -L -c 'T ${STAT_FORMAT}' -- ${q} 2>/dev/null || echo 'T -'; }`,
      `printf 'R ' && realpath -m -- ${q}`,
    ].join(" && ");
  });
  return [
    `cd -P -- ${cdWord(dir)}`,
    "printf 'D ' && pwd -P",
    `stat -c 'S ${STAT_FORMAT}' -- .`,
    "ls -ld -- .",
    ...perName,
  ].join(" && ");
}

export function parseStat(text: string): StatFacts | null {
  const fields = text.trim().split(" ");
  if (fields.length !== 7 || !fields.every((field) => /^[0-9a-f]+$/.test(field))) return null;
  const [rawMode, uid, gid, nlink, dev, ino, size] = fields as [string, ...string[]];
  const mode = Number.parseInt(rawMode, 16);
  const format = mode & 0o170000;
  const type: FileType =
    format === 0o100000 ? "file" : format === 0o040000 ? "dir" : format === 0o120000 ? "link" : "other";
  return {
    type,
    mode: mode & 0o7777,
    uid: Number(uid),
    gid: Number(gid),
    nlink: Number(nlink),
    inode: `${dev}:${ino}`,
    size: Number(size),
  };
}

/** Reads nameFactsProbe's answer for `written` (the names in the order asked), or why it cannot. */
export function parseNameFacts(
  dirAsWritten: string,
  written: readonly string[],
  result: ProbeResult,
): NameFacts[] | Unseen {
  if (result.exitCode !== 0) {
    const why = result.stderr.trim().split("\n").slice(-1)[0] || `exit ${result.exitCode}`;
    return {
      unseen: `oikos cannot see into \`${dirAsWritten}\` as the user the command runs as (${why.replace(/^bash: line \d+: /, "")})`,
    };
  }
  const lines = result.stdout.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length !== 3 + 3 * written.length) {
    return {
      unseen: `\`${dirAsWritten}\` resolves to a path oikos cannot read back (a line break in a name?)`,
    };
  }
  const [d, s, ls] = lines as [string, string, string];
  const dirStat = s.startsWith("S ") ? parseStat(s.slice(2)) : null;
  if (!d.startsWith("D /") || dirStat === null || dirStat.type !== "dir") {
    return { unseen: `\`${dirAsWritten}\` did not resolve to a directory` };
  }
  const dir: DirFacts = { path: d.slice(2), stat: dirStat, acl: /^\S{10}\+/.test(ls) };
  const out: NameFacts[] = [];
  for (const [i, path] of written.entries()) {
    const [e, t, r] = lines.slice(3 + 3 * i, 6 + 3 * i) as [string, string, string];
    const split = splitPath(path);
    if ("unseen" in split) return split;
    const entry = e === "E -" ? null : e.startsWith("E ") ? parseStat(e.slice(2)) : undefined;
    const target = t === "T -" ? null : t.startsWith("T ") ? parseStat(t.slice(2)) : undefined;
    if (entry === undefined || target === undefined || !r.startsWith("R /")) {
      return { unseen: `the facts of \`${path}\` did not read back` };
    }
    out.push({
      written: path,
      dir,
      name: `${dir.path === "/" ? "" : dir.path}/${split.base}`,
      entry,
      target,
      resolved: r.slice(2),
    });
  }
  return out;
}

/** Words expanded by the probe's shell exactly as the command's shell expands them (rm's globs). */
export function expansionProbe(rawWords: readonly string[]): string {
  return `printf '%q\\n' ${rawWords.join(" ")}`;
}

/**
 * expansionProbe's answer: one name a line, backslash-quoted by bash's `%q`. A name bash quotes as
 * `$'…'` (a control character, bytes that are not text in the target's locale) or `''` cannot be
 * read back exactly: unseen.
 */
export function parseExpansion(result: ProbeResult): string[] | Unseen {
  if (result.exitCode !== 0)
    return { unseen: `the shell could not expand the paths (${result.stderr.trim()})` };
  const lines = result.stdout.split("\n");
  if (lines.pop() !== "") return { unseen: "the expanded paths did not read back" };
  const names: string[] = [];
  for (const line of lines) {
    if (line === "" || line.startsWith("$'") || line === "''" || line.endsWith("\\")) {
      return { unseen: "a path holds control characters or bytes that are not text, which is not previewed" };
    }
    names.push(line.replace(/\\(.)/g, "$1"));
  }
  return names;
}
