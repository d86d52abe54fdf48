import type { FileOutcome, WriteTarget } from "../file-outcome.ts";
import { newMode, newOwner, sha256, writeTarget } from "../file-outcome.ts";
import type { DirListing, ShownOutcome } from "../file-render.ts";
import { parentOf, renderOutcomes } from "../file-render.ts";
import type { ProbeIdentity } from "../identity.ts";
import type { NameFacts, StatFacts } from "../name-facts.ts";
import { oneName, type PartFacts } from "../part-facts.ts";
import type { PlannedPart, Probe, ProbeResult, Rendered } from "../rule.ts";
import { shellQuote } from "../rule.ts";
import type { FileAfter } from "../types.ts";
import { BACKUP_ENV_PROBE, type BackupRequest, backupName, parseBackupEnv } from "./backup-name.ts";

/**
 * One file written by one command (issue #37), previewed from resolved names: the file whose content
 * changes (through a final link, or the name itself replaced), its content now and afterwards (each
 * read exactly: a text that does not read back to the target's own sha256 is not previewed), its
 * type, mode and owner afterwards, its other names, the backup an option makes, and the directory's
 * other entries as they were (so a file changed there that the preview did not name is flagged
 * after the run). No edit ever runs: the new content comes from read-only commands.
 */

/** Where the new content comes from: a command that prints it, or a file it is copied from. */
export type ContentSource = { command: string } | { file: string };

export interface EditContext {
  /** The name written, resolved. */
  name: NameFacts;
  target: WriteTarget;
  facts: PartFacts;
  dir: NameFacts["dir"];
  /** The source's resolved name (cp, install, mv). */
  source: NameFacts | null;
}

export interface EditSpec {
  ruleId: string;
  command: string;
  identity: ProbeIdentity;
  /** The path as the command writes it. */
  file: string;
  /** The write goes through a final link (`>`, tee, cp); else the name itself is replaced (sed -i, mv …). */
  follow: boolean;
  /** A source file the command reads (and for mv, moves): resolved with the target. */
  sourceWord?: string;
  /** What prints the new content, once the names are resolved; a string is why it cannot be shown. */
  content(context: EditContext): ContentSource | string;
  /** Who runs what prints the content (the stages before `sudo tee` run as the login). */
  contentAs?: ProbeIdentity;
  append?: boolean;
  /** The file afterwards, but its content; a string is why it cannot be told. */
  after(context: EditContext): Omit<FileAfter, "sha256" | "type"> | string;
  /** What its other names (hard links) undergo, when the file has some. */
  otherNames: "content" | "link_count";
  backup?: BackupRequest;
  /** The source name is gone afterwards (mv). */
  movesSource?: boolean;
  /** Words the command reads that must not be the file it writes (the shell empties it first). */
  reads?: readonly string[];
  notes?: readonly string[];
}

/** A new file from the shell or tee: 0666 less the umask, owned by who writes it. */
export function shellCreates(context: EditContext): Omit<FileAfter, "sha256" | "type"> {
  const owner = newOwner(context.dir, context.facts.identity);
  return { mode: newMode(context.dir, 0o666, context.facts.identity), ...owner, sameInode: false, nlink: 1 };
}

/** Written in place: same inode, mode and owner; created if missing. */
export function inPlace(context: EditContext): Omit<FileAfter, "sha256" | "type"> {
  const before = context.target.before;
  if (before === null || context.target.replacesLink) return shellCreates(context);
  return { mode: before.mode, uid: before.uid, gid: before.gid, sameInode: true, nlink: before.nlink };
}

export function editPart(spec: EditSpec): PlannedPart {
  const queries = [spec.file, ...(spec.sourceWord ? [spec.sourceWord] : []), ...(spec.reads ?? [])];
  return {
    ruleId: spec.ruleId,
    kind: "file_diff",
    command: spec.command,
    identity: spec.identity,
    files: [spec.file],
    paths: [...new Set(queries)].map((word) => ({ word, expand: false })),
    probes: (facts) => {
      const context = contextOf(spec, facts);
      if (typeof context === "string") return { unavailable: context };
      return plannedProbes(spec, context).map((p) => p.probe);
    },
    render(results, facts): Rendered {
      const context = contextOf(spec, facts);
      if (typeof context === "string") return { status: "unavailable", reason: context };
      return renderEdit(spec, context, results);
    },
  };
}

function contextOf(spec: EditSpec, facts: PartFacts): EditContext | string {
  const name = oneName(facts, spec.file);
  if ("unseen" in name) return name.unseen;
  const target = writeTarget(name, spec.follow, facts.view);
  if ("unseen" in target) return target.unseen;
  let source: NameFacts | null = null;
  if (spec.sourceWord) {
    const found = oneName(facts, spec.sourceWord);
    if ("unseen" in found) return found.unseen;
    if (found.target?.type !== "file") return `\`${spec.sourceWord}\` is not a regular file oikos can see`;
    if (spec.movesSource && found.entry?.type !== "file")
      return `\`${spec.sourceWord}\` is a link: mv moves the link itself, which is not previewed`;
    source = found;
    const written = target.before?.inode;
    if (written !== undefined && (found.target.inode === written || found.entry?.inode === written))
      return `\`${spec.sourceWord}\` and \`${spec.file}\` are one file`;
  }
  for (const word of spec.reads ?? []) {
    const read = oneName(facts, word);
    if ("unseen" in read || read.entry === null) continue;
    const same =
      read.resolved === target.path ||
      (target.before !== null &&
        (read.target?.inode === target.before.inode || read.entry.inode === target.before.inode));
    if (same) {
      return `the command reads \`${word}\`, which is \`${target.path}\`: the shell empties or opens it before the command reads it, so what it writes cannot be previewed`;
    }
  }
  if (spec.backup && name.entry?.type === "link") {
    return `\`${spec.file}\` is a link: the backup ${spec.ruleId === "file.sed_in_place" ? "sed" : "the command"} makes of it is not previewed`;
  }
  // A file is only created where the name itself is (a dangling link is not previewed).
  return { name, target, facts, dir: name.dir, source };
}

interface Planned {
  probe: Probe;
  role: "now" | "content" | "content_hash" | "source" | "listing" | "env";
}

function plannedProbes(spec: EditSpec, context: EditContext): Planned[] {
  const out: Planned[] = [];
  const { target } = context;
  if (target.before !== null) {
    out.push({ probe: fileContentProbe(target.path), role: "now" });
  }
  const source = spec.content(context);
  if (typeof source !== "string") {
    if ("command" in source) {
      const as = spec.contentAs ?? spec.identity;
      out.push({ probe: { command: source.command, accepts: "zero", as }, role: "content" });
      out.push({
        probe: { command: `set -o pipefail; { ${source.command}\n} | sha256sum`, accepts: "zero", as },
        role: "content_hash",
      });
    } else out.push({ probe: fileContentProbe(source.file), role: "source" });
  }
  out.push({ probe: listingProbe(parentOf(target.path)), role: "listing" });
  if (spec.backup && (spec.backup.control === undefined || spec.backup.suffix === undefined)) {
    out.push({ probe: { command: BACKUP_ENV_PROBE, accepts: "zero" }, role: "env" });
  }
  return out;
}

/** The file's sha256 (first line) and its content: one read, and the text checked against the hash. */
export function fileContentProbe(path: string): Probe {
  const q = shellQuote(path);
  return { command: `sha256sum -- ${q} && cat -- ${q}`, accepts: "zero" };
}

/** The directory's entries: device:inode, type, size, name; one a line. */
export function listingProbe(dir: string): Probe {
  return {
    command: `find -P ${shellQuote(dir)} -mindepth 1 -maxdepth 1 -printf '%D:%i %y %s %f\\n'`,
    accepts: "zero",
  };
}

export function parseFileContent(result: ProbeResult): { sha256: string; text: string } | string {
  const newline = result.stdout.indexOf("\n");
  const hash = /^\\?([0-9a-f]{64}) /.exec(result.stdout.slice(0, newline))?.[1];
  if (newline < 0 || hash === undefined) return "the file's content did not read back";
  const text = result.stdout.slice(newline + 1);
  if (sha256(text) !== hash)
    return "the file is not plain text (it does not read back byte for byte), so it is not diffed";
  return { sha256: hash, text };
}

export function parseListing(dir: string, result: ProbeResult): DirListing | null {
  const entries: DirListing["entries"] = [];
  for (const line of result.stdout.split("\n")) {
    if (line === "") continue;
    const match = /^(\d+:\d+) ([a-zA-Z]) (\d+) (.+)$/.exec(line);
    if (!match) return null;
    entries.push({
      inode: match[1] as string,
      type: match[2] as string,
      size: Number(match[3]),
      name: match[4] as string,
    });
  }
  return { dir, entries };
}

function renderEdit(spec: EditSpec, context: EditContext, results: readonly ProbeResult[]): Rendered {
  const planned = plannedProbes(spec, context);
  const byRole = (role: Planned["role"]) => {
    const at = planned.findIndex((p) => p.role === role);
    return at < 0 ? undefined : results[at];
  };
  const { target } = context;
  let now: { sha256: string; text: string } | null = null;
  const nowResult = byRole("now");
  if (nowResult) {
    const read = parseFileContent(nowResult);
    if (typeof read === "string") return { status: "unavailable", reason: `\`${target.path}\`: ${read}` };
    now = read;
  }
  const source = spec.content(context);
  if (typeof source === "string") return { status: "unavailable", reason: source };
  let produced: { sha256: string; text: string };
  if ("command" in source) {
    const out = byRole("content");
    const hash = /^([0-9a-f]{64}) /.exec(byRole("content_hash")?.stdout ?? "")?.[1];
    if (!out || hash === undefined)
      return { status: "unavailable", reason: "what the command writes did not read back" };
    if (sha256(out.stdout) !== hash) {
      return {
        status: "unavailable",
        reason:
          "what the command writes is not the same twice (it is decided at run time) or is not plain text, so it is not previewed",
      };
    }
    produced = { sha256: hash, text: out.stdout };
  } else {
    const read = parseFileContent(byRole("source") as ProbeResult);
    if (typeof read === "string") return { status: "unavailable", reason: `\`${source.file}\`: ${read}` };
    produced = read;
  }
  const afterText = spec.append ? (now?.text ?? "") + produced.text : produced.text;
  const afterHash = spec.append ? sha256(afterText) : produced.sha256;
  const meta = spec.after(context);
  if (typeof meta === "string") return { status: "unavailable", reason: meta };
  const listing = byRole("listing");
  const dirListing = listing ? parseListing(parentOf(target.path), listing) : null;
  const outcomes: ShownOutcome[] = [
    {
      path: target.path,
      written: target.path === spec.file ? null : spec.file,
      before: target.before,
      beforeSha256: now?.sha256 ?? null,
      after: { type: "file", sha256: afterHash, ...meta },
      otherNames: hardLinked(target.before) && !target.replacesLink ? spec.otherNames : null,
      notes: [
        ...(target.replacesLink
          ? [
              `\`${target.path}\` is a link to \`${target.replacesLink.to}\`: the link is replaced, \`${target.replacesLink.to}\` is not changed`,
            ]
          : []),
        ...(spec.notes ?? []),
      ],
      contentBefore: now?.text ?? null,
      contentAfter: afterText,
    },
  ];
  if (spec.backup && target.before !== null) {
    if (!dirListing)
      return {
        status: "unavailable",
        reason: `the backup ${spec.command} makes cannot be named: its directory could not be listed`,
      };
    const env = byRole("env");
    const envValues = env ? parseBackupEnv(env) : { control: null, suffix: null };
    if (envValues === null)
      return { status: "unavailable", reason: "the backup settings of the environment did not read back" };
    const base = target.path.slice(target.path.lastIndexOf("/") + 1);
    const name = backupName(spec.backup, envValues, base, dirListing);
    if (name !== null && "unknown" in name) return { status: "unavailable", reason: name.unknown };
    if (name !== null) {
      // The old file keeps its inode and every other name under the backup name.
      (outcomes[0] as ShownOutcome).otherNames = null;
      const path = `${parentOf(target.path)}/${name.name}`;
      const existing = dirListing.entries.find((entry) => entry.name === name.name);
      if (existing && existing.type !== "f")
        return { status: "unavailable", reason: `\`${path}\` exists and is not a regular file` };
      if (target.before.type !== "file")
        return { status: "unavailable", reason: "a backup of a link is not previewed" };
      outcomes.push({
        path,
        written: null,
        before: null,
        beforeSha256: existing ? `${existing.inode} ${existing.size}` : null,
        after: {
          type: "file",
          sha256: now?.sha256 ?? sha256(""),
          mode: target.before.mode,
          uid: target.before.uid,
          gid: target.before.gid,
          sameInode: false,
          nlink: target.before.nlink,
        },
        otherNames: null,
        notes: [],
        label: `${path}: ${existing ? "replaced by" : "created as"} a backup of \`${target.path}\` as it is now`,
        contentBefore: null,
        contentAfter: now?.text ?? "",
      });
    }
  }
  if (spec.movesSource && context.source) {
    const src = context.source;
    outcomes.push({
      path: src.name,
      written: src.written === src.name ? null : src.written,
      before: src.entry,
      beforeSha256: produced.sha256,
      after: null,
      // Renamed on one filesystem: the inode, and its other names, go on as they were.
      otherNames: null,
      notes: [`moved to \`${target.path}\``],
      contentBefore: produced.text,
      contentAfter: null,
    });
  }
  // What the command reads, resolved: a later command of the line that writes there depends on it.
  const reads = [
    ...(context.source ? [context.source.resolved] : []),
    ...(spec.reads ?? []).flatMap((word) => {
      const read = oneName(context.facts, word);
      return "unseen" in read ? [] : [read.resolved];
    }),
  ];
  const rendered = renderOutcomes(outcomes, spec.identity, dirListing ? [dirListing] : [], reads);
  return rendered;
}

function hardLinked(stat: StatFacts | null): boolean {
  return stat !== null && stat.type === "file" && stat.nlink > 1;
}

export type { FileOutcome };
