import type { ToolSpec } from "../tool-spec.ts";
import { DIGITS } from "../tool-spec.ts";

/** Text and file readers. `anyOption` only where every option the tool has was reviewed as read-only. */

/** Readers that print files as they are, or dump or encode them: `cat`, `head`, compressed and binary views. */
export const TEXT_READER_TOOLS: Record<string, ToolSpec> = {
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
  zcat: { flags: "flqv", helpers: ["gzip"] },
  xzcat: { flags: "fqv" },
  bzcat: { flags: "fqsv" },
  zstdcat: { flags: "fqv" },
  xxd: { flags: "aEipsu", valued: "cglos", maxPositionals: 1 },
  hexdump: { flags: "bcCdovx", valued: "enNs" },
  od: { flags: "bcdfiloxsv", valued: "AjNtSw" },
  strings: { flags: "afw", valued: "ntne" },
  base64: { flags: "diw", valued: "w", long: ["--decode", "--ignore-garbage"], maxPositionals: 1 },
  base32: { flags: "diw", valued: "w", long: ["--decode"], maxPositionals: 1 },
};
