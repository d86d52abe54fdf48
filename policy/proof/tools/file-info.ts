import type { ToolSpec } from "../tool-spec.ts";
import { dfGrants } from "./mount-table.ts";

/** Names, metadata, listings and sizes of files and file systems. */
export const FILE_INFO_TOOLS: Record<string, ToolSpec> = {
  namei: {
    flags: "lmonvx",
    long: ["--long", "--modes", "--owners", "--nosymlinks", "--vertical", "--mountpoints"],
  },
  basename: { flags: "asz", valued: "s" },
  dirname: { flags: "z" },
  realpath: { flags: "eLmPqsz", longValued: ["--relative-to", "--relative-base"] },
  readlink: { flags: "efmnqsvz" },
  stat: { flags: "LfLt", valued: "c", longValued: ["--format", "--printf"], anyOption: true },
  file: { flags: "bihLNrsz", valued: "F", long: ["--brief", "--mime", "--mime-type"] },
  lsattr: { flags: "RVadlpv" },
  getfacl: { flags: "aceEsRLPtpn", long: ["--omit-header", "--absolute-names"] },
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
  // -x takes a value, as df's getopt reads it (`df -x tmpfs`). With no operand, outside the jail by
  // name: the jail's mount table is its own (mount-table.ts).
  df: {
    flags: "ahHiklPT",
    valued: "Btx",
    long: ["--human-readable", "--inodes", "--print-type", "--local", "--all", "--si", "--total"],
    longValued: ["--type", "--exclude-type", "--output", "--block-size"],
    anyOption: true,
    grants: dfGrants,
  },
};
