import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PlanPreview, PreviewExpectation } from "../../../policy/preview/types.ts";
import type { Change, Snapshot } from "./world-snapshot.ts";

/**
 * The differential lab's judge (issue #37): a preview against what the command really did, file by
 * file. `not_previewed` is honest (unavailable, failed); a shown preview is `ok` only when every
 * change is one it named, as it named it. `understated`: the run changed something the preview did
 * not show, or more than it showed (more names deleted, a field it said stays); `misattributed`: it
 * named a file that did not change while another did; `wrong`: it named a change that did not
 * happen as shown (overstated or different), which is not smaller but still not what happened.
 */
export type Verdict = "ok" | "not_previewed" | "partly_previewed" | "understated" | "misattributed" | "wrong";

export interface Judgement {
  verdict: Verdict;
  details: string[];
}

interface FilePrediction {
  path: string;
  after: Extract<PreviewExpectation, { kind: "file_state" }>["after"];
  /** Only the content is predicted (previews before #37: `file_hash`). */
  contentOnly: boolean;
  inode: string | null;
  otherNames: "content" | "link_count" | null;
}

interface TreePrediction {
  root: string;
  names: number;
  linkedOutside: readonly string[];
}

function predictions(preview: Extract<PlanPreview, { status: "available" }>, command: string) {
  const files: FilePrediction[] = [];
  const trees: TreePrediction[] = [];
  for (const e of preview.expectations) {
    if (e.kind === "file_state") {
      files.push({
        path: e.path,
        after: e.after,
        contentOnly: false,
        inode: e.before?.inode ?? null,
        otherNames: e.otherNames,
      });
    } else if (e.kind === "file_hash") {
      files.push({
        path: e.path,
        after:
          e.sha256After === null
            ? null
            : {
                type: "file",
                sha256: e.sha256After,
                mode: null,
                uid: null,
                gid: null,
                sameInode: false,
                nlink: 1,
              },
        contentOnly: true,
        inode: null,
        otherNames: null,
      });
    } else if (e.kind === "tree_removed")
      trees.push({ root: e.root, names: e.names, linkedOutside: e.linkedOutside });
  }
  // Previews before #37 said rm's effect only in words: "deletes 4 KiB in 3 files and directories:",
  // then one line per path. Read as a prediction of that many names under those paths.
  const legacy = /deletes \S+ \S+ in (\d+) files and directories:\n((?: {2}.*\n?)*)/.exec(preview.text);
  if (legacy && trees.length === 0 && /(^|\s)rm\s/.test(command)) {
    const roots = (legacy[2] ?? "")
      .split("\n")
      .map((line) => /^ {2}(\/\S*) /.exec(line)?.[1])
      .filter((p): p is string => p !== undefined);
    for (const root of roots) trees.push({ root, names: Number(legacy[1]), linkedOutside: [] });
  }
  return { files, trees };
}

function under(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/**
 * Whether a change at `path` may be the doing of a part the preview said it does not show: a path
 * word of that part names it (resolved as the filesystem now resolves it, or lexically), or the part
 * names no path at all (it may change anything).
 */
function attributable(path: string, notPreviewed: readonly { command: string }[]): boolean {
  for (const { command } of notPreviewed) {
    const words = command
      .split(/[\s;&|<>]+/)
      .map((w) => w.replace(/^['"]|['"]$/g, ""))
      .filter((w) => w.startsWith("/"));
    if (words.length === 0) return true;
    for (const word of words) {
      if (under(path, word) || under(path, resolvedNow(word))) return true;
    }
  }
  return false;
}

/** The word with every link of its longest existing prefix followed. */
function resolvedNow(word: string): string {
  let head = word;
  let tail = "";
  while (head !== "/" && !existsSync(head)) {
    tail =
      tail === "" ? head.slice(head.lastIndexOf("/") + 1) : join(head.slice(head.lastIndexOf("/") + 1), tail);
    head = dirname(head);
  }
  try {
    const real = realpathSync(head);
    return tail === "" ? real : join(real, tail);
  } catch {
    return word;
  }
}

export function judge(
  preview: PlanPreview,
  command: string,
  before: Snapshot,
  changes: readonly Change[],
): Judgement {
  if (preview.status !== "available") return { verdict: "not_previewed", details: [preview.reason] };
  const { files, trees } = predictions(preview, command);
  const covered = new Set<string>();
  const understated: string[] = [];
  const wrong: string[] = [];
  const partly: string[] = [];
  const named = new Set<string>();
  const byPath = new Map(changes.map((c) => [c.path, c]));
  for (const p of files) {
    const change = byPath.get(p.path);
    const was = before.get(p.path);
    named.add(p.path);
    // A part the preview says it does not show may act on the same path after this one.
    const byUnshownPart = attributable(p.path, preview.notPreviewed);
    if (p.after === null) {
      if (change?.kind === "removed") covered.add(p.path);
      else if (byUnshownPart) partly.push(`${p.path}: shown removed, then changed by a part not previewed`);
      else wrong.push(`${p.path}: shown removed, ${change ? change.kind : "unchanged"}`);
      covered.add(p.path);
      continue;
    }
    const now = change === undefined ? was : change.kind === "removed" ? null : change.after;
    if (!now) {
      (byUnshownPart ? partly : wrong).push(`${p.path}: shown written, but it is not there`);
      covered.add(p.path);
      continue;
    }
    covered.add(p.path);
    const fields: string[] = [];
    if (now.type !== "file" || now.content !== p.after.sha256) fields.push("content");
    if (!p.contentOnly) {
      if (p.after.mode !== null && now.mode !== p.after.mode)
        fields.push(`mode ${now.mode.toString(8)} (shown ${p.after.mode.toString(8)})`);
      if (p.after.uid !== null && now.uid !== p.after.uid)
        fields.push(`uid ${now.uid} (shown ${p.after.uid})`);
      if (p.after.gid !== null && now.gid !== p.after.gid)
        fields.push(`gid ${now.gid} (shown ${p.after.gid})`);
      if (now.nlink !== p.after.nlink) fields.push(`links ${now.nlink} (shown ${p.after.nlink})`);
    } else if (was && change?.kind === "modified") {
      // An old preview said only the content: any other field that changed was not shown.
      const unshown = change.fields.filter((f) => f !== "content" && f !== "inode");
      if (unshown.length > 0)
        understated.push(`${p.path}: ${unshown.join(", ")} changed, the preview showed only the content`);
    }
    if (fields.length > 0) {
      // A field the preview showed as staying that changed is smaller than what happened; unless a
      // part the preview says it does not show acts on that path too.
      const target = byUnshownPart ? partly : change === undefined ? wrong : understated;
      target.push(`${p.path}: ${fields.join(", ")}`);
    }
    if (p.otherNames && p.inode) {
      for (const c of changes) {
        if (c.kind !== "modified" || c.before.inode !== p.inode || c.path === p.path) continue;
        const allowed = p.otherNames === "content" ? ["content"] : ["nlink"];
        if (c.fields.every((f) => allowed.includes(f))) covered.add(c.path);
      }
    }
  }
  for (const t of trees) {
    named.add(t.root);
    const removed = changes.filter((c) => c.kind === "removed" && under(c.path, t.root));
    if (removed.length === 0) {
      wrong.push(`${t.root}: shown deleted, but it is still there`);
      continue;
    }
    for (const c of removed) covered.add(c.path);
    if (removed.length > t.names)
      understated.push(`${t.root}: ${removed.length} names deleted, the preview said ${t.names}`);
    if (removed.length < t.names)
      wrong.push(`${t.root}: ${removed.length} names deleted, the preview said ${t.names}`);
    for (const c of changes) {
      if (
        c.kind === "modified" &&
        t.linkedOutside.includes(c.before.inode) &&
        c.fields.every((f) => f === "nlink")
      )
        covered.add(c.path);
    }
  }
  const describe = (c: Change) =>
    `${c.path} (${c.kind}${c.kind === "modified" ? `: ${c.fields.join(",")}` : ""})`;
  const byUnshown = changes.filter((c) => !covered.has(c.path) && attributable(c.path, preview.notPreviewed));
  const uncovered = changes.filter((c) => !covered.has(c.path) && !byUnshown.includes(c));
  partly.push(...byUnshown.map((c) => `changed by a part oikos did not preview: ${describe(c)}`));
  if (uncovered.length > 0) {
    const list = uncovered.map(describe);
    const unchangedNamed = [...named].filter((path) => !changes.some((c) => under(c.path, path)));
    if (unchangedNamed.length > 0) {
      return {
        verdict: "misattributed",
        details: [`named ${unchangedNamed.join(", ")} (unchanged), changed ${list.join("; ")}`],
      };
    }
    return {
      verdict: "understated",
      details: [`changed, not in the preview: ${list.join("; ")}`, ...understated],
    };
  }
  if (understated.length > 0) return { verdict: "understated", details: understated };
  if (wrong.length > 0) return { verdict: "wrong", details: wrong };
  if (partly.length > 0) return { verdict: "partly_previewed", details: partly };
  return { verdict: "ok", details: [] };
}
