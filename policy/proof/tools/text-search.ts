import type { ProofContext, Verdict } from "../context.ts";
import { mayReboot } from "../devices.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { DIGITS } from "../tool-spec.ts";

/** Text and file readers. `anyOption` only where every option the tool has was reviewed as read-only. */

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

/** The grep family (a recursive grep that reads devices opens the watchdog). */
export const TEXT_SEARCH_TOOLS: Record<string, ToolSpec> = {
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
    // Not `-f`: the zgrep script copies the pattern file to a temporary file of its own and removes it.
    valued: "eABC",
    check: grepDevices,
    helpers: ["gzip", "grep", "sed", "expr"],
  },
  // ripgrep: not --pre/--pre-glob (a program per file) nor --hostname-bin; -z runs the
  // decompressors it names.
  rg: {
    flags: `iIlLcvwxFSsHnNopqzuUa0${DIGITS}`,
    valued: "egtTABCmdjMrEf",
    long: [
      "--files",
      "--hidden",
      "--no-ignore",
      "--json",
      "--count",
      "--count-matches",
      "--files-with-matches",
      "--files-without-match",
      "--smart-case",
      "--ignore-case",
      "--case-sensitive",
      "--fixed-strings",
      "--word-regexp",
      "--line-regexp",
      "--line-number",
      "--no-line-number",
      "--no-heading",
      "--heading",
      "--with-filename",
      "--no-filename",
      "--only-matching",
      "--invert-match",
      "--stats",
      "--follow",
      "--search-zip",
      "--multiline",
      "--no-messages",
      "--quiet",
      "--sort-files",
      "--type-list",
      "--vimgrep",
      "--trim",
      "--text",
      "--one-file-system",
      "--no-config",
    ],
    longValued: [
      "--regexp",
      "--glob",
      "--iglob",
      "--type",
      "--type-not",
      "--after-context",
      "--before-context",
      "--context",
      "--max-count",
      "--max-depth",
      "--threads",
      "--max-columns",
      "--replace",
      "--encoding",
      "--file",
      "--color",
      "--colors",
      "--sort",
      "--sortr",
      "--max-filesize",
    ],
    helpers: ["gzip", "bzip2", "xz", "lz4", "zstd", "brotli"],
  },
};
