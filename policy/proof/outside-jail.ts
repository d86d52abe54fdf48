import { type Piece, SHELL_READ } from "./piece.ts";

/**
 * A run outside the jail (a spec's `unjailed` grant) is the whole command's: the shell around the
 * tool and the text filters beside it run there too, with no jail to bound or contain them. So the
 * shell reads nothing itself (`< file`, `$(< /proc/kmsg)`, here-documents, which bash may write to
 * /tmp), expands no brace range (memory without a bound), loops no `while`/`until` (only the
 * timeout would end it), and each filter reads only what the tool prints (fileReadOutside).
 */
/** Programs that change who runs the tool: in the jail no_new_privs stops them, outside they act. */
const ELEVATORS: ReadonlySet<string> = new Set(["sudo", "doas", "pkexec", "runuser", "su", "sg", "newgrp"]);

export function outsideJailHazard(pieces: readonly Piece[]): string | null {
  const outside = pieces.find((piece) => piece.grants.some((g) => g.resource === "unjailed"));
  if (!outside) return null;
  if (ELEVATORS.has(outside.name))
    return `\`${outside.name}\` would run outside the jail, where it really authenticates: PAM counts password attempts (\`-S\` reads them from the input; faillock may lock the account) and logs every run; log in as a user who can read what the tool needs, or ask for it`;
  const shellRead = pieces.find((piece) => piece.name === SHELL_READ);
  if (shellRead)
    return `\`${outside.name}\` runs outside the jail, and so does the shell around it: \`${shellRead.first}\` would be read there (a FIFO blocks, \`/proc/kmsg\` loses what it reads, a large here-document is written to /tmp); run \`${outside.name}\` alone, with only text filters after it`;
  if (pieces.some((piece) => piece.shellTest))
    return `\`${outside.name}\` runs outside the jail, and so does the shell around it: its \`[[ … ]]\` would look up paths there (an automount mounts, a dead NFS path hangs); run \`${outside.name}\` alone, with only text filters after it`;
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
interface FilterReads {
  /** How many operands come before the first file (grep's pattern, tr's sets: all of them). */
  leading: (options: readonly string[]) => number;
  /** Short options that read files, follow them or walk trees. */
  short: string;
  long: readonly string[];
}

const GREP: FilterReads = {
  leading: patternFirst,
  short: "frRdD",
  long: ["--file", "--recursive", "--dereference-recursive", "--directories", "--devices", "--exclude-from"],
};
/** Builtins and tools whose operands are text, never files. */
const NO_FILES: FilterReads = { leading: () => Number.POSITIVE_INFINITY, short: "", long: [] };
/** Any other filter: every operand is a file. */
const ALL_FILES: FilterReads = { leading: () => 0, short: "", long: [] };

const FILTER_READS: Readonly<Record<string, FilterReads>> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
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
  tr: NO_FILES,
  echo: NO_FILES,
  true: NO_FILES,
  false: NO_FILES,
  ":": NO_FILES,
  pwd: NO_FILES,
};

function patternFirst(options: readonly string[]): number {
  const patternByOption = options.some(
    (o) => /^-[A-Za-z]*[ef]/.test(o) || o.startsWith("--regexp") || o.startsWith("--file"),
  );
  return patternByOption ? 0 : 1;
}

/**
 * jq's generators and recursion, and its modules (`include "x" {search: "/net/…"}` opens files,
 * whose code this never reads): a program with none of them ends with its input.
 */
const JQ_UNBOUNDED =
  /\b(range|repeat|until|while|recurse\w*|def|foreach|reduce|limit|first|input|inputs|import|include|modulemeta|get_search_list)\b/;

function jqProgramEnds(piece: Piece): boolean {
  const options = piece.words?.options ?? [];
  if (options.some((o) => o === "-n" || o === "--null-input" || /^-[A-Za-z]*n/.test(o))) return false;
  const program = piece.words?.operands[0];
  return program !== undefined && !program.startsWith("\0") && !JQ_UNBOUNDED.test(program);
}

export function fileReadOutside(piece: Piece): string | null {
  if (piece.name === "openssl") return "read a certificate file";
  // printf pads to any width (`%0999999999d`); a jq program can loop for ever (`range(1e12)`)
  if (piece.name === "printf") return "run without a bound";
  // a path test or a directory change walks into an automount (`/net/host`, binfmt_misc) or a dead NFS mount
  if (piece.name === "test" || piece.name === "[" || piece.name === "cd") return "look up a path";
  if (piece.name === "jq" && !jqProgramEnds(piece)) return "run a jq program that may not end";
  const shape = FILTER_READS[piece.name] ?? ALL_FILES;
  const options = piece.words?.options ?? [];
  for (const option of options) {
    const long = option.startsWith("--");
    if (long && shape.long.some((name) => option === name || option.startsWith(`${name}=`)))
      return `read files (\`${option}\`)`;
    if (!long && [...option.slice(1)].some((letter) => shape.short.includes(letter)))
      return `read files or never end (\`${option}\`)`;
  }
  // a word bash expands (`{x,/proc/kmsg}`, `/proc/k*`, `$x`) may become several, the rest read as files
  const expanded = (piece.words?.operands ?? []).find((operand) => operand.startsWith("\0"));
  if (expanded !== undefined) return `read what \`${expanded.slice(1)}\` expands to`;
  const files = (piece.words?.operands ?? []).slice(shape.leading(options));
  return files.length > 0 ? `read \`${files[0]?.replace(/^\0/, "")}\`` : null;
}
