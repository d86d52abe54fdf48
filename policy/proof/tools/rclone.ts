import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

/**
 * A remote is a name from rclone's configuration (`nas:backups`) or a local path. Not an on-the-fly
 * remote (`:sftp,host=h,ssh='cmd':`, whose options can name programs: `ssh=`, `bearer_token_command=`)
 * nor a configured remote with options in the string (`nas,url=https://other:`), which sends that
 * remote's stored password to another host.
 */
function configuredRemotes(args: readonly ProofWord[]): Verdict {
  for (const arg of args) {
    if (!arg.static || arg.value.startsWith("-")) continue;
    // `nas,key=value:` overrides the remote's options, and a value may hold `/` (`bearer_token_command=/usr/bin/id`)
    const comma = arg.value.indexOf(",");
    if (arg.value.startsWith(":") || (comma >= 0 && arg.value.indexOf(":", comma) > comma))
      return `\`rclone … ${arg.value}\` is a remote defined in the command, whose options can run programs or send a stored password to another host; use a remote from rclone's configuration`;
  }
  return null;
}

const RCLONE_GLOBAL = {
  flags: "vqn",
  long: [
    "--dry-run",
    "--one-way",
    "--size-only",
    "--download",
    "--human-readable",
    "--recursive",
    "--fast-list",
    "--max-depth",
  ],
  longValued: [
    "--max-depth",
    "--include",
    "--exclude",
    "--min-size",
    "--max-size",
    "--checkers",
    "--transfers",
  ],
};

/** rclone listings; sync, copy and move only as a dry run. Remotes reach other hosts. */
export const RCLONE_TOOLS: Record<string, ToolSpec> = {
  rclone: {
    // network: every word may reach a remote, so none may be filled in at run time
    network: true,
    ...RCLONE_GLOBAL,
    sub: Object.fromEntries(
      [
        "lsl",
        "lsd",
        "ls",
        "lsf",
        "lsjson",
        "md5sum",
        "sha1sum",
        "size",
        "listremotes",
        "check",
        "cat",
        "tree",
        "about",
        "version",
      ].map((verb) => [verb, { ...RCLONE_GLOBAL, check: configuredRemotes }]),
    ),
  },
};

// rclone sync/copy/move only as --dry-run.
(RCLONE_TOOLS.rclone as ToolSpec & { sub: Record<string, ToolSpec> }).sub.sync = {
  ...RCLONE_GLOBAL,
  check: (args) =>
    args.some((a) => a.static && (a.value === "--dry-run" || a.value === "-n"))
      ? configuredRemotes(args)
      : "rclone sync without --dry-run writes",
};
