import type { ParsedScript, SyntaxNode } from "./bash-parser.ts";
import type { RunnableRisk } from "./decide-run.ts";
import { normalisePath } from "./paths.ts";
import { basename } from "./program-path.ts";
import type { SnapshotBeforeMode } from "./snapshot-before.ts";
import { wordValue } from "./words.ts";

/**
 * ZFS datasets on a plain host (not a Proxmox guest): which datasets an approved change touches, and
 * whether a `zfs snapshot` before it protects anything.
 *
 * What a snapshot taken just before protects is the files of a dataset: `rm -rf /tank/data/x`,
 * `> /tank/data/f`, `dd of=/tank/vm.img`, `find /tank -delete` … — a `zfs rollback` to it brings
 * them back. It protects nothing against ZFS's own destructive verbs on the dataset: `zfs destroy`
 * removes the dataset or snapshot with (or refuses because of) its snapshots, `zfs rollback` needs
 * the snapshot it rolls back to be the newest (ours would make it fail, or `-r` would destroy ours),
 * and `zfs receive -F` rolls back to the newest snapshot (ours) and then refuses an incremental
 * stream that does not start from it. Those are said as "no snapshot: <why>", never taken.
 */

/** A mounted ZFS filesystem of the host (`zfs list -H -o name,mountpoint,mounted -t filesystem`). */
export interface ZfsMount {
  dataset: string;
  mountpoint: string;
}

/** A ZFS verb that destroys on its own, with the dataset it names. */
export interface ZfsVerbOnDataset {
  verb: "destroy" | "rollback" | "receive";
  dataset: string;
}

/** What a command line touches that a dataset snapshot concerns. */
export interface DatasetTouch {
  /** `zfs destroy|rollback|receive -F` anywhere in the command. */
  zfsVerbs: ZfsVerbOnDataset[];
  /** Absolute paths the command names (arguments, redirections, `key=/path`), normalised; for a word with an expansion or a glob, the directory before it. */
  paths: string[];
}

/** Why a change on a host's datasets ran without a snapshot. */
export type DatasetNoSnapshotCode = "disabled" | "cannot_protect" | "too_many_datasets";

export type DatasetSnapshotDecision =
  /** Nothing to say: read-only, a guest (snapshotted as a guest), or no ZFS dataset involved. */
  | { kind: "not_applicable" }
  /** Ask the host for its mounted datasets (a read-only `zfs list`), then decide again with them. */
  | { kind: "read_mounts" }
  | { kind: "skip"; code: DatasetNoSnapshotCode; reason: string }
  | { kind: "take"; datasets: string[] };

export interface DatasetSnapshotFacts {
  risk: RunnableRisk;
  mode: SnapshotBeforeMode;
  /** The target's transport; a guest's (pct-exec, qm-guest-exec) is snapshotted as a guest instead. */
  transport: string;
  touch: DatasetTouch;
  /** The host's mounted datasets once read; null before, or when the host has no `zfs`. */
  mounts: readonly ZfsMount[] | "not_read" | null;
}

/** One `zfs snapshot` takes all datasets atomically; more than this is not a targeted change. */
export const MAX_SNAPSHOT_DATASETS = 8;

/** Paths under these are kernel filesystems, never a dataset's files (even when `/` is one). */
const VIRTUAL_TREES = ["/dev", "/proc", "/sys", "/run"];

const GUEST_TRANSPORTS = new Set(["pct-exec", "qm-guest-exec"]);

export function decideDatasetSnapshot(facts: DatasetSnapshotFacts): DatasetSnapshotDecision {
  if (facts.risk === "read_only" || GUEST_TRANSPORTS.has(facts.transport)) return { kind: "not_applicable" };
  const enabled = !(facts.mode === "off" || (facts.mode === "destructive" && facts.risk !== "destructive"));
  const verb = facts.touch.zfsVerbs[0];
  if (verb) {
    if (!enabled) return disabled(facts.mode);
    return { kind: "skip", code: "cannot_protect", reason: cannotProtect(verb) };
  }
  if (facts.touch.paths.length === 0) return { kind: "not_applicable" };
  if (facts.mounts === "not_read") return { kind: "read_mounts" };
  if (facts.mounts === null) return { kind: "not_applicable" };
  const datasets = datasetsOfPaths(facts.touch.paths, facts.mounts);
  if (datasets.length === 0) return { kind: "not_applicable" };
  if (!enabled) return disabled(facts.mode);
  if (datasets.length > MAX_SNAPSHOT_DATASETS) {
    return {
      kind: "skip",
      code: "too_many_datasets",
      reason: `the change touches ${datasets.length} datasets (${datasets.slice(0, 3).join(", ")} …); oikos snapshots at most ${MAX_SNAPSHOT_DATASETS} at once`,
    };
  }
  return { kind: "take", datasets };
}

function disabled(mode: SnapshotBeforeMode): DatasetSnapshotDecision {
  return {
    kind: "skip",
    code: "disabled",
    reason:
      mode === "off"
        ? "snapshots before changes are off for this target"
        : "snapshots are taken before destructive changes only (execution.snapshotBefore: mutating to include config changes)",
  };
}

function cannotProtect(verb: ZfsVerbOnDataset): string {
  switch (verb.verb) {
    case "destroy":
      return `\`zfs destroy\` of ${verb.dataset} is itself the destruction: a snapshot of it goes with it (or stops it), so none was taken`;
    case "rollback":
      return `\`zfs rollback\` of ${verb.dataset} discards every newer snapshot: one taken before would stop it (or be destroyed by -r), so none was taken`;
    case "receive":
      return `\`zfs receive -F\` into ${verb.dataset} rolls back to its newest snapshot first: one taken before would break the stream, so none was taken`;
  }
}

/**
 * The datasets whose files the paths reach: for each path the dataset mounted deepest above it, and
 * every dataset mounted below it (a recursive removal of `/tank` reaches `/tank/media`'s files too).
 */
export function datasetsOfPaths(paths: readonly string[], mounts: readonly ZfsMount[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    let deepest: ZfsMount | undefined;
    for (const mount of mounts) {
      if (isUnder(path, mount.mountpoint)) {
        if (!deepest || mount.mountpoint.length > deepest.mountpoint.length) deepest = mount;
      } else if (isUnder(mount.mountpoint, path)) {
        found.add(mount.dataset);
      }
    }
    if (deepest) found.add(deepest.dataset);
  }
  return [...found].sort();
}

function isUnder(path: string, dir: string): boolean {
  return dir === "/" || path === dir || path.startsWith(`${dir}/`);
}

/** ZFS dataset names: pool/child/…, letters, digits and `_ - . :`; never a snapshot (`@`) or bookmark (`#`). */
export function isDatasetName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.:-]*(\/[A-Za-z0-9_.:-]+)*$/.test(name);
}

/** `zfs list -H -o name,mountpoint,mounted -t filesystem`: the mounted filesystems with a real mountpoint. */
export function parseZfsMounts(stdout: string): ZfsMount[] {
  const mounts: ZfsMount[] = [];
  for (const line of stdout.split("\n")) {
    const [dataset, mountpoint, mounted] = line.split("\t");
    if (!dataset || !mountpoint || !isDatasetName(dataset) || mounted !== "yes") continue;
    if (!mountpoint.startsWith("/")) continue; // legacy, none, -
    mounts.push({ dataset, mountpoint: normalisePath(mountpoint) });
  }
  return mounts;
}

/**
 * The command's destructive ZFS verbs and the absolute paths it names, read from its parse tree. A
 * script handed to a shell (`sh -c '…'`, `sudo bash -c "…"`) is parsed with `parse` and read the same
 * way, to a few levels.
 */
export function datasetTouch(parsed: ParsedScript, parse?: (source: string) => ParsedScript): DatasetTouch {
  const touch: DatasetTouch = { zfsVerbs: [], paths: [] };
  const paths = new Set<string>();
  const read = (script: ParsedScript, depth: number) => {
    const visit = (node: SyntaxNode) => {
      if (node.type === "command") {
        const verb = zfsVerb(node, script.source);
        if (verb) touch.zfsVerbs.push(verb);
        const inner = parse && depth < MAX_SHELL_DEPTH ? shellScript(node, script.source) : null;
        if (inner !== null && parse) read(parse(inner), depth + 1);
      }
      if (node.type === "command_name") return; // the program, not a path it works on
      if (WORD_TYPES.has(node.type)) {
        const path = pathOfWord(node, script.source);
        if (path !== null) paths.add(path);
        return;
      }
      for (const child of node.children) visit(child);
    };
    visit(script.root);
  };
  read(parsed, 0);
  touch.paths = [...paths].sort();
  return touch;
}

const MAX_SHELL_DEPTH = 3;
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "ash"]);

/** The script of `sh -c '<script>'` (through wrappers), when it is literal text. */
function shellScript(command: SyntaxNode, source: string): string | null {
  const words = command.children
    .filter((child) => child.field === "name" || child.field === "argument")
    .map((child) => wordValue(child, source));
  while (words.length > 0 && WRAPPERS.has(basename(words[0]!.text))) words.shift();
  if (!SHELLS.has(basename(words[0]?.text ?? ""))) return null;
  const flag = words.findIndex((word, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(word.text));
  const script = flag > 0 ? words[flag + 1] : undefined;
  return script && script.dynamic === "none" ? script.text : null;
}

const WORD_TYPES = new Set(["word", "string", "raw_string", "ansi_c_string", "concatenation"]);

/** Words a wrapper puts before the command it runs. */
const WRAPPERS = new Set(["sudo", "doas", "nice", "ionice", "nohup", "time", "command", "exec"]);

function zfsVerb(command: SyntaxNode, source: string): ZfsVerbOnDataset | null {
  const words = command.children
    .filter((child) => child.field === "name" || child.field === "argument")
    .map((child) => wordValue(child, source).text);
  while (words.length > 0 && WRAPPERS.has(basename(words[0] as string))) words.shift();
  if (basename(words[0] ?? "") !== "zfs") return null;
  const verb = words[1];
  const operands = words.slice(2).filter((word) => !word.startsWith("-"));
  const dataset = (operands.at(-1) ?? "").split(/[@#]/)[0] ?? "";
  const named = dataset || "(no dataset named)";
  if (verb === "destroy") return { verb: "destroy", dataset: named };
  if (verb === "rollback") return { verb: "rollback", dataset: named };
  if ((verb === "receive" || verb === "recv") && words.slice(2).some((w) => /^-[A-Za-z]*F/.test(w)))
    return { verb: "receive", dataset: named };
  return null;
}

/**
 * The absolute path a word names: the word itself, or the part after `=` (`of=/tank/x`,
 * `--target=/tank`); cut at the first expansion or glob to the directory before it. null otherwise.
 */
export function pathOfWord(node: SyntaxNode, source: string): string | null {
  const value = wordValue(node, source);
  let text = value.text;
  const equals = text.indexOf("=/");
  if (!text.startsWith("/") && equals > 0 && !text.slice(0, equals).includes("/"))
    text = text.slice(equals + 1);
  if (!text.startsWith("/")) return null;
  const special = text.search(/[$`*?[{]/);
  if (special >= 0) text = text.slice(0, text.lastIndexOf("/", special) + 1) || "/";
  const path = normalisePath(text);
  if (VIRTUAL_TREES.some((tree) => isUnder(path, tree))) return null;
  return path;
}
