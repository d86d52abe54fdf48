import type { DirListing } from "../file-render.ts";
import type { ProbeResult } from "../probe.ts";

/**
 * Side files that options make (issue #37): `sed -i SUFFIX` keeps the old file as name+SUFFIX;
 * `cp`/`mv`/`install` `-b` / `--backup[=CONTROL]` keep the old destination as `name~` (or the
 * `-S`/`--suffix`) or as the next `name.~N~`, as GNU's backup rules say (CONTROL, else
 * $VERSION_CONTROL, else `existing`; suffix else $SIMPLE_BACKUP_SUFFIX, else `~`).
 */

export type BackupControl = "none" | "simple" | "numbered" | "existing";

const CONTROLS: Record<string, BackupControl> = {
  none: "none",
  off: "none",
  simple: "simple",
  never: "simple",
  numbered: "numbered",
  t: "numbered",
  existing: "existing",
  nil: "existing",
};

/** GNU's argmatch: a unique prefix of a control word names it. */
export function readControl(word: string): BackupControl | null {
  const exact = CONTROLS[word];
  if (exact) return exact;
  const matches = new Set(
    Object.entries(CONTROLS)
      .filter(([name]) => name.startsWith(word) && word !== "")
      .map(([, control]) => control),
  );
  return matches.size === 1 ? ([...matches][0] as BackupControl) : null;
}

/** What the command line says about backups; undefined fields come from the environment. */
export interface BackupRequest {
  control: BackupControl | undefined;
  suffix: string | undefined;
}

/** Reads $VERSION_CONTROL and $SIMPLE_BACKUP_SUFFIX as the command will see them (set or not). */
export const BACKUP_ENV_PROBE =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template
  'printf \'[%s]\\n\' "${VERSION_CONTROL+set:$VERSION_CONTROL}" "${SIMPLE_BACKUP_SUFFIX+set:$SIMPLE_BACKUP_SUFFIX}"';

export function parseBackupEnv(
  result: ProbeResult,
): { control: string | null; suffix: string | null } | null {
  const lines = result.stdout.split("\n");
  if (result.exitCode !== 0 || lines.length !== 3 || lines[2] !== "") return null;
  const read = (line: string): string | null | undefined => {
    if (line === "[]") return null;
    return line.startsWith("[set:") && line.endsWith("]") ? line.slice(5, -1) : undefined;
  };
  const control = read(lines[0] as string);
  const suffix = read(lines[1] as string);
  return control === undefined || suffix === undefined ? null : { control, suffix };
}

/**
 * The backup name for `base` in its directory's listing, or null for no backup, or why it cannot be
 * told (an unknown control in the environment).
 */
export function backupName(
  request: BackupRequest,
  env: { control: string | null; suffix: string | null },
  base: string,
  listing: DirListing,
): { name: string } | null | { unknown: string } {
  let control = request.control;
  if (control === undefined) {
    if (env.control === null || env.control === "") control = "existing";
    else {
      const fromEnv = readControl(env.control);
      if (fromEnv === null)
        return { unknown: `VERSION_CONTROL=${env.control} is not a backup control oikos knows` };
      control = fromEnv;
    }
  }
  if (control === "none") return null;
  // gnulib's backupfile: a suffix that is empty or holds a `/` is `~`.
  const given = request.suffix ?? env.suffix ?? "";
  const suffix = given === "" || given.includes("/") ? "~" : given;
  const numbers = listing.entries
    .map((entry) => new RegExp(`^${escapeRegExp(base)}\\.~([1-9][0-9]*)~$`).exec(entry.name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const numbered = control === "numbered" || (control === "existing" && numbers.length > 0);
  if (numbered) return { name: `${base}.~${Math.max(0, ...numbers) + 1}~` };
  return { name: `${base}${suffix}` };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
