import type { JailGrant } from "../jail-grant.ts";
import { INSIDE_WHEN_SHARED } from "./tools/grant-helpers.ts";

/** A simple command's options (as written) and operands (`\0` + raw text for a run-time word). */
export interface PieceWords {
  options: string[];
  operands: string[];
}

/** One simple command of a proven command line and the grants it named for itself. */
export interface Piece {
  /** The command's name as written (basename), e.g. `docker`, `grep`, `sudo`. */
  name: string;
  /** Its first argument as written (`x509` of `openssl x509`), for filters that are subcommands. */
  first: string;
  grants: JailGrant[];
  /** Its script has a `while`/`until` loop: it may run again and again until the timeout. */
  repeats?: boolean;
  /** Its script expands a brace range (`{1..999999999}`): as many words as it says, in memory. */
  braceRange?: boolean;
  /** Its options and operands as its spec read them. */
  words?: PieceWords;
}

/**
 * Text filters that cannot use a granted resource: they read their input and the files they name
 * (opening a socket path fails with ENXIO) and write their output; none connects, execs or starts
 * a program in the spellings their specs prove. `awk` (gawk's /inet/…), `sed` (`e`), `rg` (`--pre`)
 * and `sort` helpers are left out on purpose. Builtins here run in the shell itself.
 */
export const PURE_FILTERS: ReadonlySet<string> = new Set([
  "grep",
  "egrep",
  "fgrep",
  "head",
  "tail",
  "sort",
  "wc",
  "cut",
  "tr",
  "uniq",
  "column",
  "jq",
  "cat",
  "tac",
  "nl",
  "rev",
  "fold",
  "paste",
  "expand",
  "unexpand",
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "test",
  "[",
  "cd",
  "pwd",
  "openssl x509",
]);

function isFilter(piece: Piece): boolean {
  return PURE_FILTERS.has(piece.name) || PURE_FILTERS.has(`${piece.name} ${piece.first}`);
}

/** Shells proven only for the text they run (`bash -c '…'`): each command of it is a piece of its own. */
const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "dash"]);

/** Grants a piece cannot borrow from another: a network, a service's socket, a run outside the jail. */
function powerKey(grant: JailGrant): string | null {
  switch (grant.resource) {
    case "network":
      return "network";
    case "socket":
      return `socket:${grant.service}`;
    case "unjailed":
      return `unjailed:${grant.needs}`;
    default:
      return null;
  }
}

function powerOf(grants: readonly JailGrant[]): string[] {
  return [...new Set(grants.map(powerKey).filter((key): key is string => key !== null))].sort();
}

/**
 * Grants are per tool, not per command: the jail opens a resource to every process of the run, so
 * a piece that did not need it would borrow it (`docker ps; psql -h /run/…/pg`, `curl …; git remote
 * show origin`). A command whose pieces need a network, socket or unjailed grant is proven only if
 * every other piece is a pure text filter (PURE_FILTERS) or needs exactly the same of those grants
 * (`dig a; dig b`, `docker ps; docker images`). Otherwise: run the pieces separately.
 */
export function borrowedGrant(pieces: readonly Piece[]): string | null {
  const union = powerOf(pieces.flatMap((piece) => piece.grants));
  if (union.length === 0) return null;
  const key = union.join(",");
  const needing = pieces.find((piece) => powerOf(piece.grants).length > 0);
  for (const piece of pieces) {
    if (piece.name === SHELL_READ) continue; // judged beside a run outside the jail: repeatedOutside
    const own = powerOf(piece.grants);
    if (own.join(",") === key) continue;
    if (own.length === 0 && SHELLS.has(piece.name)) continue;
    if (own.length === 0 && isFilter(piece)) {
      const outside = union.some((k) => k.startsWith("unjailed:"));
      const reads = outside ? fileReadOutside(piece) : null;
      if (!reads) continue;
      return `\`${piece.name}\` would ${reads} outside the jail beside \`${needing?.name ?? "another piece"}\` (a run outside the jail is the whole command's); let it filter only what \`${needing?.name ?? "that piece"}\` prints, or run it as a separate command`;
    }
    const what = union.map((k) => (k.startsWith("unjailed:") ? `a run outside the jail (${k.slice(9)})` : k));
    return `\`${piece.name}\` would run with ${what.join(" and ")} that ${
      own.length > 0 ? "another piece" : `\`${needing?.name ?? "another piece"}\``
    } needs (the jail opens a grant to the whole command); run \`${needing?.name ?? "that piece"}\` on its own, or with only text filters (grep, head, jq …) after it, and the rest as a separate command`;
  }
  return null;
}

/**
 * The pieces as the command runs them: as proven, unless another piece would borrow a run outside
 * the jail (borrowedGrant) — then every piece whose spec only prefers that run goes back inside the
 * jail with the grants INSIDE_WHEN_SHARED names, and borrowedGrant judges the result. `df -h | grep
 * sda` and `df -h; findmnt` run outside; `uptime; df -h` runs jailed (df then prints the jail's mount
 * table, and the result says so); `dmesg; df -h` still asks, as dmesg cannot read inside the jail.
 */
export function runTogether(pieces: readonly Piece[]): readonly Piece[] {
  if (borrowedGrant(pieces) === null) return pieces;
  return pieces.map((piece) => ({
    ...piece,
    grants: piece.grants.flatMap((grant) =>
      grant.resource === "unjailed" ? [...(INSIDE_WHEN_SHARED.get(grant.spec) ?? [grant])] : [grant],
    ),
  }));
}

/**
 * What the shell itself reads for the command (`< file`, `$(< file)`, a here-document or here-string),
 * recorded as a piece of this name whose `first` is the redirection: harmless in the jail, a read of
 * the host beside a run outside it.
 */
export const SHELL_READ = "<";

/**
 * A run outside the jail has nothing to bound it but the command's timeout: a loop around it
 * (`while true; do dmesg; done`) would read the host for as long as the timeout allows.
 */
export function repeatedOutside(pieces: readonly Piece[]): string | null {
  const outside = pieces.find((piece) => piece.grants.some((g) => g.resource === "unjailed"));
  if (!outside) return null;
  const shellRead = pieces.find((piece) => piece.name === SHELL_READ);
  if (shellRead)
    return `\`${outside.name}\` runs outside the jail, and so does the shell around it: \`${shellRead.first}\` would be read there (a FIFO blocks, \`/proc/kmsg\` loses what it reads, a large here-document is written to /tmp); run \`${outside.name}\` alone, with only text filters after it`;
  if (pieces.some((piece) => piece.braceRange))
    return `\`${outside.name}\` runs outside the jail, where no memory bound holds a brace range's expansion; write the words out`;
  const looped = pieces.find((piece) => piece.repeats && piece.grants.some((g) => g.resource === "unjailed"));
  if (!looped) return null;
  return `\`${looped.name}\` runs outside the jail, where only the timeout would end a \`while\`/\`until\` loop around it; run it once (a \`for\` over fixed words is fine), or ask for the loop`;
}

/**
 * How a text filter reads beyond its standard input, in the forms its spec proves: operands after
 * those that are not files (grep's pattern, tr's sets), options that name files, follow or walk
 * trees. Beside a run outside the jail, that would be a read of the host outside the jail
 * (`dmesg | cat /proc/kmsg` consumes the kernel log; `tail -f` never ends; `grep -r x /` walks every
 * mount; a FIFO blocks).
 */
const FILTER_READS: Readonly<
  Record<string, { leading: (options: readonly string[]) => number; short: string; long: readonly string[] }>
> = {
  grep: {
    leading: patternFirst,
    short: "frRdD",
    long: [
      "--file",
      "--recursive",
      "--dereference-recursive",
      "--directories",
      "--devices",
      "--exclude-from",
    ],
  },
  egrep: {
    leading: patternFirst,
    short: "frRdD",
    long: [
      "--file",
      "--recursive",
      "--dereference-recursive",
      "--directories",
      "--devices",
      "--exclude-from",
    ],
  },
  fgrep: {
    leading: patternFirst,
    short: "frRdD",
    long: [
      "--file",
      "--recursive",
      "--dereference-recursive",
      "--directories",
      "--devices",
      "--exclude-from",
    ],
  },
  jq: {
    leading: (options) => (options.some((o) => o === "-f" || o.startsWith("--from-file")) ? 0 : 1),
    short: "fL",
    long: ["--from-file", "--slurpfile", "--rawfile", "--library-path"],
  },
  tail: { leading: () => 0, short: "fF", long: ["--follow", "--retry"] },
  sort: {
    leading: () => 0,
    short: "TS",
    long: ["--files0-from", "--temporary-directory", "--buffer-size", "--parallel"],
  },
  wc: { leading: () => 0, short: "", long: ["--files0-from"] },
  tr: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  echo: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  printf: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  test: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  "[": { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  true: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  false: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  ":": { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  cd: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
  pwd: { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] },
};

function patternFirst(options: readonly string[]): number {
  const patternByOption = options.some(
    (o) => /^-[A-Za-z]*[ef]/.test(o) || o.startsWith("--regexp") || o.startsWith("--file"),
  );
  return patternByOption ? 0 : 1;
}

/** jq's generators and recursion: a program with none of them ends with its input. */
const JQ_UNBOUNDED = /\b(range|repeat|until|while|recurse\w*|def|foreach|reduce|limit|first|input|inputs)\b/;

function jqProgramEnds(piece: Piece): boolean {
  const options = piece.words?.options ?? [];
  if (options.some((o) => o === "-n" || o === "--null-input" || /^-[A-Za-z]*n/.test(o))) return false;
  const program = piece.words?.operands[0];
  return program !== undefined && !program.startsWith("\0") && !JQ_UNBOUNDED.test(program);
}

function fileReadOutside(piece: Piece): string | null {
  if (piece.name === "openssl") return "read a certificate file";
  // printf pads to any width (`%0999999999d`); a jq program can loop for ever (`range(1e12)`)
  if (piece.name === "printf") return "run without a bound";
  if (piece.name === "jq" && !jqProgramEnds(piece)) return "run a jq program that may not end";
  const shape = FILTER_READS[piece.name] ?? { leading: () => 0, short: "", long: [] };
  const options = piece.words?.options ?? [];
  for (const option of options) {
    const long = option.startsWith("--");
    if (long && shape.long.some((name) => option === name || option.startsWith(`${name}=`)))
      return `read files (\`${option}\`)`;
    if (!long && [...option.slice(1)].some((letter) => shape.short.includes(letter)))
      return `read files or never end (\`${option}\`)`;
  }
  const files = (piece.words?.operands ?? []).slice(shape.leading(options));
  return files.length > 0 ? `read \`${files[0]?.replace(/^\0/, "")}\`` : null;
}
