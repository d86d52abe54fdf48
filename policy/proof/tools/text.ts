import type { ProofContext, Verdict } from "../context.ts";
import { mayReboot } from "../devices.ts";
import { checkAwkProgram } from "../mini/awk.ts";
import { checkSedScript } from "../mini/sed.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

/** Text and file readers. `anyOption` only where every option the tool has was reviewed as read-only. */

const DIGITS = "0123456789";

function firstProgram(
  args: readonly ProofWord[],
  programOptions: readonly string[],
  valued: readonly string[],
): ProofWord | string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (arg.static && programOptions.includes(arg.value))
      return args[i + 1] ?? "a program option needs a value";
    if (arg.static && arg.value === "--") return args[i + 1] ?? null;
    if (arg.static && arg.value.startsWith("-") && arg.value !== "-") {
      if (valued.includes(arg.value)) i++;
      continue;
    }
    return arg;
  }
  return null;
}

/**
 * `-D read`, `-rDread`, `--devices=read`, `--devices read`; or, when grep recurses, a word only
 * known at run time that could be one of them.
 */
function readsDevices(args: readonly ProofWord[]): boolean {
  const recursive = args.some(
    (arg) =>
      arg.static &&
      (/^-[A-Za-z0-9]*[rR]/.test(arg.value) ||
        /^--(recursive|dereference-recursive|directories=recurse)$/.test(arg.value)),
  );
  return args.some((arg, k) => {
    if (!arg.static) return recursive && arg.mayBeOption;
    if (/^(-[A-Za-z0-9]*Dread|--devices=read)$/.test(arg.value)) return true;
    return /^(-[A-Za-z0-9]*D|--devices)$/.test(arg.value) && args[k + 1]?.value === "read";
  });
}

function grepDevices(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  return readsDevices(args)
    ? mayReboot("`grep -D read` opens every device it meets, the watchdog included", ctx)
    : null;
}

function awkCheck(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  const program = firstProgram(args, ["-e", "--source"], ["-F", "-v", "--field-separator", "--assign"]);
  if (typeof program === "string") return program;
  if (!program) return "awk without a program";
  if (!program.static) return "the awk program is only known at run time";
  return checkAwkProgram(program.value, ctx);
}

function sedCheck(args: readonly ProofWord[]): Verdict {
  const scripts = args.filter(
    (_, i) => args[i - 1]?.static && ["-e", "--expression"].includes(args[i - 1]?.value ?? ""),
  );
  if (scripts.length === 0) {
    const first = firstProgram(args, [], ["-l", "--line-length"]);
    if (typeof first === "string") return first;
    if (first) scripts.push(first);
  }
  for (const script of scripts) {
    if (!script.static) return "the sed script is only known at run time";
    const verdict = checkSedScript(script.value);
    if (verdict) return verdict;
  }
  // sed joins its `-e` scripts with newlines: the joined text must pass too.
  if (scripts.length > 1) {
    const verdict = checkSedScript(scripts.map((script) => script.value).join("\n"));
    if (verdict) return verdict;
  }
  return scripts.length > 0 ? null : "sed without a script";
}

const READER: ToolSpec = { anyOption: true };

export const TEXT_TOOLS: Record<string, ToolSpec> = {
  cat: {
    flags: "AbeEnstTuv",
    long: [
      "--number",
      "--show-all",
      "--squeeze-blank",
      "--number-nonblank",
      "--show-ends",
      "--show-tabs",
      "--show-nonprinting",
    ],
    anyOption: true,
  },
  tac: { flags: "br", valued: "s", anyOption: true },
  head: {
    flags: `qvz${DIGITS}`,
    valued: "nc",
    longValued: ["--lines", "--bytes"],
    long: ["--quiet", "--verbose"],
    anyOption: true,
  },
  tail: {
    flags: `fFqvz${DIGITS}`,
    valued: "ncs",
    longValued: ["--lines", "--bytes", "--pid", "--sleep-interval"],
    long: ["--follow", "--retry", "--quiet"],
    anyOption: true,
  },
  grep: {
    flags: `EFGPivwxyclLoqsbHhnTZrRUaIz${DIGITS}`,
    valued: "efmABCD",
    long: [
      "--color",
      "--colour",
      "--count",
      "--ignore-case",
      "--invert-match",
      "--word-regexp",
      "--line-number",
      "--recursive",
      "--files-with-matches",
      "--only-matching",
      "--quiet",
      "--silent",
      "--no-messages",
      "--with-filename",
      "--no-filename",
      "--null",
      "--extended-regexp",
      "--fixed-strings",
      "--perl-regexp",
      "--text",
      "--binary",
    ],
    longValued: [
      "--color",
      "--colour",
      "--include",
      "--exclude",
      "--exclude-dir",
      "--regexp",
      "--file",
      "--max-count",
      "--after-context",
      "--before-context",
      "--context",
      "--devices",
      "--directories",
      "--label",
    ],
    // Recursing, grep skips devices unless told to read them (`-D read` opens the watchdog).
    check: grepDevices,
    anyOption: true,
  },
  egrep: {
    flags: `ivwxclLoqsHhnr${DIGITS}`,
    valued: "efABC",
    anyOption: true,
    helpers: ["grep"],
    check: grepDevices,
  },
  fgrep: {
    flags: `ivwxclLoqsHhnr${DIGITS}`,
    valued: "efABC",
    anyOption: true,
    helpers: ["grep"],
    check: grepDevices,
  },
  zgrep: {
    flags: `ivwxclLoqsHhnEF${DIGITS}`,
    valued: "efABC",
    anyOption: true,
    check: grepDevices,
    helpers: ["gzip", "grep", "sed"],
  },
  wc: { flags: "clmwL", long: ["--lines", "--words", "--bytes", "--chars"], anyOption: true },
  cut: {
    flags: "snz",
    valued: "bcdf",
    longValued: ["--delimiter", "--fields", "--characters", "--bytes", "--output-delimiter"],
    long: ["--complement", "--only-delimited"],
    anyOption: true,
  },
  tr: { flags: "cCdst", anyOption: true },
  sort: {
    flags: "bdfghiMnRrsuVzcCm",
    valued: "kStT",
    long: [
      "--numeric-sort",
      "--human-numeric-sort",
      "--reverse",
      "--unique",
      "--version-sort",
      "--ignore-case",
      "--stable",
      "--general-numeric-sort",
      "--month-sort",
      "--check",
    ],
    longValued: ["--key", "--field-separator", "--buffer-size", "--parallel"],
    values: { "-T": () => false },
  },
  uniq: {
    flags: "cdDiuz",
    valued: "fsw",
    long: ["--count", "--repeated", "--unique", "--ignore-case"],
    maxPositionals: 1,
  },
  column: {
    flags: "tnxeJ",
    valued: "sRNHWoc",
    longValued: ["--table-columns", "--separator", "--output-separator"],
    long: ["--table"],
  },
  nl: { flags: "p", valued: "bdfhilnsvw" },
  rev: READER,
  fold: { flags: "bs", valued: "w" },
  fmt: { flags: "cstu", valued: "pgw" },
  paste: { flags: "sz", valued: "d" },
  join: { flags: "izt", valued: "aevjo12t" },
  comm: { flags: "123iz", long: ["--check-order", "--nocheck-order"] },
  diff: {
    flags: "qsyuUcCNrtTbBwiEZaNpd",
    valued: "UCxXIFW",
    long: [
      "--brief",
      "--unified",
      "--recursive",
      "--side-by-side",
      "--ignore-all-space",
      "--color",
      "--new-file",
      "--ignore-case",
      "--text",
      "--report-identical-files",
    ],
    longValued: ["--unified", "--context", "--color", "--exclude", "--ignore-matching-lines"],
  },
  cmp: { flags: "blsz", valued: "inN" },
  md5sum: { flags: "bctwz", long: ["--check", "--quiet", "--status", "--strict", "--tag"] },
  sha1sum: { flags: "bctwz", long: ["--check", "--quiet", "--status", "--strict", "--tag"] },
  sha256sum: { flags: "bctwz", long: ["--check", "--quiet", "--status", "--strict", "--tag"] },
  sha512sum: { flags: "bctwz", long: ["--check", "--quiet", "--status", "--strict", "--tag"] },
  b2sum: { flags: "bctwz", valued: "l" },
  cksum: { flags: "" },
  hexdump: { flags: "bcCdovx", valued: "enNs" },
  od: { flags: "bcdfiloxsv", valued: "AjNtSw" },
  strings: { flags: "afw", valued: "ntne" },
  base64: { flags: "diw", valued: "w", long: ["--decode", "--ignore-garbage"], maxPositionals: 1 },
  base32: { flags: "diw", valued: "w", long: ["--decode"], maxPositionals: 1 },
  seq: { flags: "w", valued: "fs" },
  expr: READER,
  numfmt: { longValued: ["--from", "--to", "--suffix", "--field", "--format", "--padding"] },
  basename: { flags: "asz", valued: "s" },
  dirname: { flags: "z" },
  realpath: { flags: "eLmPqsz", longValued: ["--relative-to", "--relative-base"] },
  readlink: { flags: "efmnqsvz" },
  stat: { flags: "LfLt", valued: "c", longValued: ["--format", "--printf"], anyOption: true },
  file: { flags: "bihLNrsz", valued: "F", long: ["--brief", "--mime", "--mime-type"] },
  jq: {
    flags: "rjcnsSeaC",
    long: [
      "--raw-output",
      "--compact-output",
      "--slurp",
      "--sort-keys",
      "--exit-status",
      "--tab",
      "--null-input",
      "--join-output",
      "--ascii-output",
      "--color-output",
      "--monochrome-output",
    ],
    longValued: ["--arg", "--argjson", "--indent"],
  },
  awk: { valued: "Fv", longValued: ["--field-separator", "--assign"], check: awkCheck },
  gawk: { valued: "Fv", longValued: ["--field-separator", "--assign"], check: awkCheck },
  mawk: { valued: "Fv", check: awkCheck },
  sed: {
    flags: "nErsuz",
    valued: "el",
    long: [
      "--quiet",
      "--silent",
      "--regexp-extended",
      "--separate",
      "--null-data",
      "--posix",
      "--debug",
      "--sandbox",
    ],
    longValued: ["--expression", "--line-length"],
    check: sedCheck,
  },
  zcat: { flags: "flqv", helpers: ["gzip"] },
  xzcat: { flags: "fqv" },
  bzcat: { flags: "fqsv" },
  zstdcat: { flags: "fqv" },
  xxd: { flags: "aEipsu", valued: "cglos", maxPositionals: 1 },
  tree: {
    flags: "adfghilpqrstuxACDFJNQSvX",
    valued: "LIP",
    longValued: ["--charset"],
    values: { "-o": () => false },
  },
  ls: {
    flags: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1",
    valued: "IwT",
    long: [
      "--all",
      "--almost-all",
      "--human-readable",
      "--color",
      "--full-time",
      "--group-directories-first",
      "--inode",
      "--numeric-uid-gid",
      "--recursive",
      "--reverse",
      "--size",
      "--directory",
      "--si",
    ],
    longValued: [
      "--color",
      "--sort",
      "--time-style",
      "--time",
      "--format",
      "--block-size",
      "--ignore",
      "--hide",
      "--indicator-style",
    ],
    anyOption: true,
  },
  du: {
    flags: "abcDhHklLmsSxP0",
    valued: "dBt",
    long: [
      "--summarize",
      "--human-readable",
      "--apparent-size",
      "--all",
      "--one-file-system",
      "--total",
      "--si",
      "--inodes",
    ],
    longValued: ["--max-depth", "--exclude", "--block-size", "--threshold", "--time"],
    anyOption: true,
  },
  df: {
    flags: "ahHiklPTx",
    valued: "Bt",
    long: ["--human-readable", "--inodes", "--print-type", "--local", "--all", "--si", "--total"],
    longValued: ["--type", "--exclude-type", "--output", "--block-size"],
    anyOption: true,
  },
};
