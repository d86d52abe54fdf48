import type { ToolSpec } from "../tool-spec.ts";

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

/** rclone listings; sync, copy and move only as a dry run. */
export const RCLONE_TOOLS: Record<string, ToolSpec> = {
  rclone: {
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
      ].map((verb) => [verb, RCLONE_GLOBAL]),
    ),
  },
};

// rclone sync/copy/move only as --dry-run.
(RCLONE_TOOLS.rclone as ToolSpec & { sub: Record<string, ToolSpec> }).sub.sync = {
  ...RCLONE_GLOBAL,
  check: (args) =>
    args.some((a) => a.static && (a.value === "--dry-run" || a.value === "-n"))
      ? null
      : "rclone sync without --dry-run writes",
};
