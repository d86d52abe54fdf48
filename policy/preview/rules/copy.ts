import type { Arg } from "../../command-view.ts";
import { mayWrite, newMode, newOwner } from "../file-outcome.ts";
import { sameWrittenPath } from "../file-paths.ts";
import type { PreviewRule } from "../rule.ts";
import { onlyStage, single, unavailable } from "../rule.ts";
import { type BackupRequest, readControl } from "./backup-name.ts";
import { type EditContext, editPart } from "./file-edit.ts";
import { pathProblem } from "./path-word.ts";

/**
 * `cp`, `install`, `mv` of one file onto another (issue #37: every option is read for what it adds —
 * a backup, a preserved mode or owner, a destination removed first — or the form is not previewed).
 * The preview is the destination's diff against the source's content, its mode and owner afterwards,
 * the backup, and for mv the source name gone.
 */

type Tool = "cp" | "install" | "mv";

interface CopyCall {
  preserveMode: boolean;
  preserveOwner: boolean;
  removeDestination: boolean;
  /** install -m (octal), -o, -g (numeric or root). */
  mode: number | null;
  uid: number | null;
  gid: number | null;
  compare: boolean;
  force: boolean;
  backup: BackupRequest | null;
  positionals: Arg[];
}

/** Options that change nothing the preview shows (how it reports, reflinks, sparseness …). */
const PASSIVE: Record<Tool, readonly string[]> = {
  cp: [
    "-v",
    "--verbose",
    "--debug",
    "-L",
    "--dereference",
    "-H",
    "-T",
    "--no-target-directory",
    "--strip-trailing-slashes",
  ],
  install: [
    "-v",
    "--verbose",
    "-c",
    "-p",
    "--preserve-timestamps",
    "-T",
    "--no-target-directory",
    "-D",
    "--debug",
  ],
  mv: ["-v", "--verbose", "-T", "--no-target-directory", "--strip-trailing-slashes", "--debug"],
};
const PASSIVE_VALUED: Record<Tool, readonly string[]> = {
  cp: ["--sparse", "--reflink"],
  install: [],
  mv: [],
};

function owner(value: string): number | null {
  if (value === "root") return 0;
  return /^\d+$/.test(value) ? Number(value) : null;
}

/** Reads the options getopt would; a string is why the form is not previewed. */
function readCopy(tool: Tool, args: readonly Arg[]): CopyCall | string {
  const call: CopyCall = {
    preserveMode: false,
    preserveOwner: false,
    removeDestination: false,
    mode: null,
    uid: null,
    gid: null,
    compare: false,
    force: false,
    backup: null,
    positionals: [],
  };
  const backup = (control: BackupRequest["control"], suffix?: string) => {
    call.backup = { control: control ?? call.backup?.control, suffix: suffix ?? call.backup?.suffix };
  };
  const preserve = (list: string, on: boolean): string | null => {
    for (const item of list.split(",")) {
      if (item === "mode") call.preserveMode = on;
      else if (item === "ownership") call.preserveOwner = on;
      else if (item !== "timestamps")
        return `\`${item}\` (preserved links, contexts or extended attributes) is not previewed`;
    }
    return null;
  };
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as Arg;
    if (arg.dynamic !== "none") return `\`${arg.raw}\` is decided at run time`;
    const token = arg.value;
    if (done || !token.startsWith("-") || token === "-") {
      call.positionals.push(arg);
      continue;
    }
    if (token === "--") {
      done = true;
      continue;
    }
    const [name, value] =
      token.startsWith("--") && token.includes("=")
        ? [token.slice(0, token.indexOf("=")), token.slice(token.indexOf("=") + 1)]
        : [token, undefined];
    if (PASSIVE[tool].includes(token) || PASSIVE_VALUED[tool].includes(name)) continue;
    if (name === "--backup") {
      const control = value === undefined ? undefined : readControl(value);
      if (control === null) return `\`${token}\` is not a backup control`;
      backup(control);
      continue;
    }
    if (name === "--suffix") {
      if (value === undefined) return "`--suffix` needs `=SUFFIX` here";
      backup(undefined, value);
      continue;
    }
    if (tool !== "install" && (token === "-f" || token === "--force")) {
      call.force = true;
      continue;
    }
    if (tool === "cp" && token === "--remove-destination") {
      call.removeDestination = true;
      continue;
    }
    if (tool === "cp" && (name === "--preserve" || name === "--no-preserve")) {
      const problem = preserve(value ?? "mode,ownership,timestamps", name === "--preserve");
      if (problem) return problem;
      continue;
    }
    if (tool === "install" && (token === "-C" || token === "--compare")) {
      call.compare = true;
      continue;
    }
    if (tool === "install" && ["--mode", "--owner", "--group"].includes(name)) {
      const problem = installValue(call, name.slice(2, 3), value);
      if (problem) return problem;
      continue;
    }
    if (!token.startsWith("--")) {
      // A bundle of short options; -S, -m, -o, -g take the rest or the next word.
      const letters = token.slice(1);
      for (let at = 0; at < letters.length; at++) {
        const letter = letters[at] as string;
        const valued = letter === "S" || (tool === "install" && "mog".includes(letter));
        if (valued) {
          const rest = letters.slice(at + 1) || args[++i]?.value;
          if (rest === undefined) return `\`-${letter}\` needs a value`;
          if (letter === "S") backup(undefined, rest);
          else {
            const problem = installValue(call, letter, rest);
            if (problem) return problem;
          }
          break;
        }
        const problem = shortFlag(tool, letter, call, backup);
        if (problem) return problem;
      }
      continue;
    }
    return `${tool} option \`${token}\` is not previewed (one file onto one file only)`;
  }
  return call;
}

function shortFlag(
  tool: Tool,
  letter: string,
  call: CopyCall,
  backup: (control: BackupRequest["control"]) => void,
): string | null {
  if (PASSIVE[tool].includes(`-${letter}`)) return null;
  if (letter === "b") backup(undefined);
  else if (letter === "f" && tool !== "install") call.force = true;
  else if (letter === "p" && tool === "cp") {
    call.preserveMode = true;
    call.preserveOwner = true;
  } else if (letter === "C" && tool === "install") call.compare = true;
  else return `${tool} option \`-${letter}\` is not previewed (one file onto one file only)`;
  return null;
}

function installValue(call: CopyCall, letter: string, value: string | undefined): string | null {
  if (value === undefined) return `\`-${letter}\` needs a value`;
  if (letter === "m") {
    if (!/^0?[0-7]{3,4}$/.test(value)) return `install -m \`${value}\`: only an octal mode is previewed`;
    call.mode = Number.parseInt(value, 8);
  } else {
    const id = owner(value);
    if (id === null) return `install -${letter} \`${value}\`: only a numeric id (or root) is previewed`;
    if (letter === "o") call.uid = id;
    else call.gid = id;
  }
  return null;
}

/** What the destination is afterwards, per tool and options. */
function copyAfter(tool: Tool, call: CopyCall) {
  return (context: EditContext) => {
    const { target, facts, source } = context;
    const src = source?.target;
    if (!src) return "the source could not be seen";
    const identity = facts.identity;
    const createdOwner = newOwner(context.dir, identity);
    if (tool === "mv") {
      const sameDevice = source?.entry?.inode.split(":")[0] === context.dir.stat.inode.split(":")[0];
      if (!sameDevice) return "mv across filesystems copies and deletes, which is not previewed";
      return { mode: src.mode, uid: src.uid, gid: src.gid, sameInode: false, nlink: src.nlink };
    }
    if (tool === "install") {
      return {
        mode: call.mode ?? 0o755,
        uid: call.uid ?? createdOwner.uid,
        gid: call.gid ?? createdOwner.gid,
        sameInode: false,
        nlink: 1,
      };
    }
    const before = target.before;
    const fresh = before === null || call.removeDestination || call.backup !== null;
    if (!fresh && !mayWrite(before, identity)) {
      return call.force
        ? "cp -f onto a file it may not write removes it and makes a new one, which is not previewed"
        : "the destination is not writable by who runs cp, so cp fails";
    }
    if (call.preserveOwner && identity.uid !== 0 && (src.uid !== identity.uid || src.gid !== identity.gid)) {
      return "cp preserving the owner as a user that is not root keeps what it may, which is not previewed";
    }
    const mode = call.preserveMode
      ? src.mode
      : fresh
        ? newMode(context.dir, src.mode & 0o777, identity)
        : before.mode;
    const uidGid = call.preserveOwner
      ? { uid: src.uid, gid: src.gid }
      : fresh
        ? createdOwner
        : { uid: before.uid, gid: before.gid };
    return { mode, ...uidGid, sameInode: !fresh, nlink: fresh ? 1 : before.nlink };
  };
}

const TOOLS = new Set<string>(["cp", "install", "mv"]);

export const COPY_RULE: PreviewRule = {
  id: "file.copy",
  kind: "file_diff",
  what: "`cp` / `install` / `mv` of one file onto another: the destination's diff, mode and owner afterwards, the backup, the moved source",
  match(statement) {
    const stage = onlyStage(statement);
    if (!stage || !TOOLS.has(stage.name)) return null;
    const tool = stage.name as Tool;
    if (statement.writes.length > 0 || stage.assignments.length > 0) {
      return unavailable(`${tool} with redirections or variables is not previewed`);
    }
    const call = readCopy(tool, stage.argv.slice(1));
    if (typeof call === "string") return unavailable(call);
    if (call.positionals.length !== 2)
      return unavailable(`${tool} of several files or into a directory is not previewed`);
    const [source, destination] = call.positionals as [Arg, Arg];
    const problem = pathProblem(source) ?? pathProblem(destination);
    if (problem) return unavailable(problem);
    if (sameWrittenPath(source.value, destination.value)) {
      return unavailable(`${tool} of \`${source.value}\` onto itself is not previewed`);
    }
    if (call.compare && call.backup) return unavailable("install -C with a backup is not previewed");
    return single(
      editPart({
        ruleId: this.id,
        command: statement.text,
        identity: stage.sudo ? "sudo" : "login",
        file: destination.value,
        // cp writes through a link at the destination; install and mv (and cp that removes the
        // destination or keeps a backup of it) put a new file in its place.
        follow: tool === "cp" && !call.removeDestination && call.backup === null,
        sourceWord: source.value,
        content: ({ source: src }) => (src ? { file: src.resolved } : "the source could not be seen"),
        after: copyAfter(tool, call),
        otherNames:
          tool === "cp" && !call.removeDestination && call.backup === null ? "content" : "link_count",
        ...(call.backup ? { backup: call.backup } : {}),
        movesSource: tool === "mv",
        notes: call.compare
          ? ["install -C leaves the destination as it is when it already is this file"]
          : [],
      }),
    );
  },
  examples: [
    ["cp /etc/app.conf.new /etc/app.conf", ["facts /etc/app.conf", "facts /etc/app.conf.new"]],
    ["sudo install -m 0644 -o root ./exports /etc/exports", ["facts /etc/exports", "facts ./exports"]],
    ["mv -f /srv/x.conf /etc/x.conf", ["facts /etc/x.conf", "facts /srv/x.conf"]],
    ["cp -b --suffix=.orig a /etc/b", ["facts /etc/b", "facts a"]],
    ["cp --preserve=mode /srv/a /etc/b", ["facts /etc/b", "facts /srv/a"]],
    ["cp -r /etc/a /etc/b", "unavailable"],
    ["cp a b c/", "unavailable"],
    ["cp --preserve=all -s a /etc/b", "unavailable"],
    ["cp -t /etc a", "unavailable"],
    ["install -o www-data a /etc/b", "unavailable"],
    ["mv -n a /etc/b", "unavailable"],
  ],
};
