import { redact } from "../redact.ts";
import type { FileOutcome } from "./file-outcome.ts";
import type { ProbeIdentity } from "./identity.ts";
import { unifiedDiff } from "./line-diff.ts";
import type { StatFacts } from "./name-facts.ts";
import type { Rendered } from "./rule.ts";
import type { PreviewExpectation } from "./types.ts";

/** An outcome with the texts the card shows: the content now and afterwards (null: none). */
export interface ShownOutcome extends FileOutcome {
  contentBefore: string | null;
  contentAfter: string | null;
  /** Said instead of a diff (a backup: the old file kept under another name). */
  label?: string;
}

/** A directory the command writes in, as it was: every entry but the ones the preview names. */
export interface DirListing {
  dir: string;
  entries: { name: string; inode: string; type: string; size: number }[];
}

/**
 * The card's text, the fingerprint's effect, the checks after the run and the one-line summary of
 * the files a part changes. Diffs are computed over the redacted whole files (a secret recognised
 * only with its surroundings stays hidden when a hunk cuts them off).
 */
export function renderOutcomes(
  outcomes: readonly ShownOutcome[],
  identity: ProbeIdentity,
  listings: readonly DirListing[],
  reads: readonly string[] = [],
): Extract<Rendered, { status: "ok" }> {
  const text = outcomes.map(outcomeText).join("\n");
  const expectations: PreviewExpectation[] = outcomes.map((o) => ({
    kind: "file_state",
    path: o.path,
    identity,
    after: o.after,
    before: o.before ? { inode: o.before.inode, nlink: o.before.nlink } : null,
    otherNames: o.otherNames,
  }));
  // The other names of a file the preview changes (hard links) change with it, as the preview says.
  const inodes = new Set(outcomes.flatMap((o) => (o.before && o.otherNames ? [o.before.inode] : [])));
  for (const listing of listings) {
    const named = [
      ...outcomes.filter((o) => parentOf(o.path) === listing.dir).map((o) => baseOf(o.path)),
      ...listing.entries.filter((entry) => inodes.has(entry.inode)).map((entry) => entry.name),
    ];
    expectations.push({
      kind: "dir_entries",
      dir: listing.dir,
      identity,
      named,
      others: listing.entries.filter((entry) => !named.includes(entry.name)),
    });
  }
  // Everything the card says, and what each name resolved to: a link swapped for another file with
  // the same content changes the fingerprint.
  const effect = JSON.stringify(
    outcomes.map((o) => [
      o.path,
      o.written,
      statKey(o.before),
      o.beforeSha256,
      o.after,
      o.otherNames,
      o.notes,
    ]),
  );
  return {
    status: "ok",
    text,
    effect,
    expectations,
    summary: summaryOf(outcomes),
    touches: {
      writes: outcomes.map((o) => o.path),
      reads: [...reads],
      inodes: outcomes.flatMap((o) => (o.before ? [o.before.inode] : [])),
    },
  };
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function statKey(stat: StatFacts | null): string | null {
  return stat
    ? `${stat.type} ${stat.mode.toString(8)} ${stat.uid}:${stat.gid} ${stat.nlink} ${stat.inode}`
    : null;
}

export function octal(mode: number): string {
  return mode.toString(8).padStart(4, "0");
}

function outcomeText(o: ShownOutcome): string {
  const label = o.written ? `${o.path} (named \`${o.written}\`)` : o.path;
  const lines: string[] = [];
  if (o.label !== undefined) {
    lines.push(o.label);
  } else if (o.after === null) {
    lines.push(`${label}: removed`);
  } else {
    lines.push(diffText(o, label));
    lines.push(...metaLines(o));
  }
  if (o.otherNames && o.before) {
    const others = o.before.nlink - 1;
    lines.push(
      o.otherNames === "content"
        ? `${o.path} has ${others} other name(s) (hard links): they change with it`
        : `${o.path} has ${others} other name(s) (hard links): they keep the old content, with one link fewer`,
    );
  }
  lines.push(...o.notes);
  return lines.join("\n");
}

function diffText(o: ShownOutcome, label: string): string {
  const before = o.contentBefore ?? "";
  const after = o.contentAfter ?? "";
  const shownBefore = redact(before);
  const shownAfter = redact(after);
  const exists = o.before !== null;
  const diff = unifiedDiff(
    { before: exists ? `${label} (now)` : `${label} (does not exist yet)`, after: `${label} (after)` },
    shownBefore,
    shownAfter,
  );
  if (diff === null) {
    return `${label}: the change is too large to show line by line (${lineCount(before)} → ${lineCount(after)} lines)`;
  }
  if (diff === "" && before !== after) return `${label}: only redacted secret values change (not shown)`;
  if (diff === "") return exists ? `${label}: no change to its content` : `${label}: created empty`;
  return diff;
}

function metaLines(o: ShownOutcome): string[] {
  const after = o.after;
  if (after === null) return [];
  const mode = after.mode === null ? "as the directory's default ACL sets it" : octal(after.mode);
  const owner = `${after.uid ?? "?"}:${after.gid ?? "?"}`;
  if (o.before === null) return [`created: mode ${mode}, owner ${owner}`];
  const lines: string[] = [];
  if (o.before.type === "link")
    lines.push(`the link is replaced by a regular file: mode ${mode}, owner ${owner}`);
  else {
    if (after.mode !== (o.before.mode & 0o7777)) lines.push(`mode ${octal(o.before.mode)} → ${mode}`);
    if (after.uid !== o.before.uid || after.gid !== o.before.gid)
      lines.push(`owner ${o.before.uid}:${o.before.gid} → ${owner}`);
  }
  return lines;
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function summaryOf(outcomes: readonly ShownOutcome[]): string {
  const [first, ...rest] = outcomes;
  if (!first) return "no file changes";
  const more =
    rest.length > 0 ? `; and ${rest.length} more file(s): ${rest.map((o) => o.path).join(", ")}` : "";
  return `${first.path}: ${changeWords(first)}${more}`;
}

function changeWords(o: ShownOutcome): string {
  if (o.label !== undefined) return o.label;
  if (o.after === null) return "removed";
  if (o.before === null) return `created (${lineCount(o.contentAfter ?? "")} lines)`;
  const meta = metaLines(o).length > 0 ? ", mode or owner change" : "";
  if (o.contentBefore === o.contentAfter) return `content unchanged${meta}`;
  const diff = unifiedDiff({ before: "", after: "" }, o.contentBefore ?? "", o.contentAfter ?? "");
  if (diff === null) return `rewritten (${lineCount(o.contentAfter ?? "")} lines)${meta}`;
  const lines = diff.split("\n").slice(2);
  const added = lines.filter((line) => line.startsWith("+")).length;
  const removed = lines.filter((line) => line.startsWith("-")).length;
  return `+${added} −${removed} lines${meta}`;
}
