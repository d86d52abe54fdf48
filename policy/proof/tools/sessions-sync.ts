import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { hasFlag } from "./grant-helpers.ts";

/**
 * tmux formats run shell commands in the server (`#(cmd)`) and expand option values again (`E:`,
 * `T:`): a listing's `-F`/`-f` format is proven only without them.
 */
function tmuxFormats(args: readonly ProofWord[]): Verdict {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static) return `\`tmux … ${arg.raw}\` is only known at run time`;
    const format = /^-[A-Za-z]*[Ff]$/.test(arg.value)
      ? args[i + 1]?.value
      : /^-[A-Za-z]*[Ff](.+)$/.exec(arg.value)?.[1];
    if (format !== undefined && /#\(|[ETS]:/.test(format))
      return "a tmux format with `#(…)` runs a shell command in the server";
  }
  return null;
}

/** `display-message -p FORMAT` prints; without -p it writes to a client's status line. */
function displayMessage(args: readonly ProofWord[]): Verdict {
  if (!hasFlag(args, "p")) return "`tmux display-message` without -p writes to a client's status line";
  for (const arg of args) {
    if (!arg.static) return `\`tmux … ${arg.raw}\` is only known at run time`;
    if (!arg.value.startsWith("-") && /#\(|[ETS]:/.test(arg.value))
      return "a tmux format with `#(…)` runs a shell command in the server";
  }
  return null;
}

const TMUX_LIST: ToolSpec = { flags: "aJ", valued: "FfstT", maxPositionals: 0, check: tmuxFormats };

/**
 * rsync dry runs between local paths: `-n` changes nothing, but a `host:path` or `rsync://` operand
 * runs a remote shell, and `--log-file`, `--write-batch` write even in a dry run.
 */
function rsyncDryRun(args: readonly ProofWord[]): Verdict {
  if (!hasFlag(args, "n", ["--dry-run", "--list-only"])) return "`rsync` without -n (--dry-run) copies";
  for (const arg of args) {
    if (!arg.static) return `\`rsync … ${arg.raw}\` is only known at run time (it could name another host)`;
    if (arg.value.startsWith("-")) continue;
    if (/^[^/]*:/.test(arg.value) || arg.value.startsWith("rsync://"))
      return `\`rsync … ${arg.value}\` names another host, reached through a remote shell`;
  }
  return null;
}

/** Terminal multiplexer listings, and rsync's dry runs. */
export const SESSION_AND_SYNC_TOOLS: Record<string, ToolSpec> = {
  // Not -f (a configuration file), -c (a shell command) or -C (control mode); and no command that
  // starts a server: listings fail with "no server running" instead.
  // tmux reads `;` (or a word ending in `;`) as the start of another tmux command, which the server
  // runs outside any jail (`tmux ls \; run-shell …`): argvScript refuses both.
  tmux: {
    argvScript: true,
    valued: "LS",
    flags: "u2",
    grants: [{ resource: "socket", service: "tmux" }],
    sub: {
      ls: TMUX_LIST,
      "list-sessions": TMUX_LIST,
      "list-windows": TMUX_LIST,
      "list-panes": { ...TMUX_LIST, flags: "as" },
      "list-clients": TMUX_LIST,
      "has-session": { valued: "t" },
      "display-message": { flags: "pv", valued: "tc", check: displayMessage },
    },
  },
  rsync: {
    flags: "nvqarilptgoDHAXSxhzcuEWmyPOJR8",
    long: [
      "--dry-run",
      "--list-only",
      "--verbose",
      "--archive",
      "--recursive",
      "--checksum",
      "--delete",
      "--delete-before",
      "--delete-during",
      "--delete-after",
      "--delete-excluded",
      "--itemize-changes",
      "--stats",
      "--human-readable",
      "--progress",
      "--update",
      "--existing",
      "--ignore-existing",
      "--size-only",
      "--no-perms",
      "--no-owner",
      "--no-group",
      "--numeric-ids",
      "--one-file-system",
      "--hard-links",
      "--acls",
      "--xattrs",
      "--sparse",
      "--compress",
      "--relative",
      "--partial",
      "--inplace",
      "--whole-file",
      "--prune-empty-dirs",
      "--version",
      "--help",
    ],
    longValued: [
      "--exclude",
      "--include",
      "--exclude-from",
      "--include-from",
      "--filter",
      "--info",
      "--out-format",
      "--max-size",
      "--min-size",
      "--chmod",
      "--link-dest",
      "--compare-dest",
      "--modify-window",
    ],
    check: rsyncDryRun,
  },
};
