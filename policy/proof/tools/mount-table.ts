import type { JailGrant } from "../../jail-grant.ts";
import type { ProofWord } from "../proof-word.ts";
import { MOUNT_TABLE, unjailed } from "./grant-helpers.ts";

/**
 * `df` and `findmnt` read the mount table, and inside the jail the table is the jail's (MOUNT_TABLE).
 * They run outside the jail by name only in the forms that can do nothing but read it — no file
 * written, no signal, no socket, no name looked up, nothing that waits for ever:
 *
 *  - `df` with no operand and without `-a`/`--all`: df opens each operand (a watchdog, a tape
 *    that rewinds on close, a FIFO that blocks), and `-a` asks statfs of autofs triggers, which
 *    mounts them (`--sync` is not proven at all). Left: statfs of every mounted filesystem, as
 *    jailed (a network filesystem's server answers it either way).
 *  - `findmnt` with no operand, listing the kernel's table (or /etc/mtab) with the columns it
 *    holds: not `-S`/`-T`/`-M` (path and tag lookups walk the tree, trigger automounts, and a tag
 *    not in udev's links makes libblkid scan the disks and write its cache), `-c`/`-e` (the same
 *    lookups for every line), `-s` (fstab's tags), `-F` (any file: a FIFO, a device), `-N` (another
 *    process's table), `-D` and the SIZE/AVAIL/USED/USE% columns (statfs, which mounts an autofs
 *    trigger), LABEL/UUID/PARTLABEL/PARTUUID/SOURCES (probe devices), nor `-p` (waits for ever).
 *
 * Every word must be fixed text; a word known only at run time keeps the run inside the jail. Any
 * other form runs jailed (no grant), where the tool answers with the jail's table, reported.
 */
export function dfGrants(args: readonly ProofWord[]): readonly JailGrant[] {
  return onlyOptions(args, {
    // df's getopt: "aB:iF:hHklmPTt:vx:"
    valued: "BFtx",
    longValued: ["--block-size", "--type", "--exclude-type"],
    refused: (option) => option === "-a" || option === "--all",
  })
    ? unjailed(MOUNT_TABLE, "df")
    : [];
}

/** findmnt's columns that come from the mount table itself (findmnt --help lists them all). */
const TABLE_COLUMNS = new Set([
  "TARGET",
  "SOURCE",
  "FSTYPE",
  "OPTIONS",
  "VFS-OPTIONS",
  "FS-OPTIONS",
  "FSROOT",
  "MAJ:MIN",
  "ID",
  "PARENT",
  "PROPAGATION",
  "OPT-FIELDS",
  "TID",
]);

/** `-o`'s value: a list of table columns, maybe after `+` (added to the default ones). */
function tableColumns(value: string): boolean {
  return value
    .replace(/^\+/, "")
    .split(",")
    .every((column) => TABLE_COLUMNS.has(column.toUpperCase()));
}

const FINDMNT_READS_TABLE = new Set([
  "-A",
  "-b",
  "-f",
  "-k",
  "-l",
  "-m",
  "-n",
  "-r",
  "-u",
  "-J",
  "--json",
  "--list",
  "--noheadings",
  "--real",
  "--pseudo",
]);

export function findmntGrants(args: readonly ProofWord[]): readonly JailGrant[] {
  return onlyOptions(args, {
    valued: "oOt",
    longValued: ["--output", "--types"],
    refused: (option, value) => {
      if (option === "-o" || option === "--output") return !tableColumns(value ?? "");
      if (option === "-O" || option === "-t" || option === "--types") return false;
      return !FINDMNT_READS_TABLE.has(option);
    },
  })
    ? unjailed(MOUNT_TABLE, "findmnt")
    : [];
}

/**
 * Whether `args` are options only, each fixed text, none of them refused: a short bundle is read
 * letter by letter (a valued letter takes the rest of the word, or the next word), a long option
 * with a value as `--name=value` or `--name value`; any other word is an operand. `refused` sees
 * each option as `-x` or `--name`, with its value.
 */
function onlyOptions(
  args: readonly ProofWord[],
  spec: {
    valued: string;
    longValued: readonly string[];
    refused: (option: string, value?: string) => boolean;
  },
): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static || !arg.value.startsWith("-") || arg.value === "-" || arg.value === "--") return false;
    if (arg.value.startsWith("--")) {
      const eq = arg.value.indexOf("=");
      const name = eq < 0 ? arg.value : arg.value.slice(0, eq);
      let value = eq < 0 ? undefined : arg.value.slice(eq + 1);
      if (value === undefined && spec.longValued.includes(name)) {
        const next = args[++i];
        if (!next?.static) return false;
        value = next.value;
      }
      if (spec.refused(name, value)) return false;
      continue;
    }
    for (let k = 1; k < arg.value.length; k++) {
      const letter = arg.value[k] as string;
      if (!spec.valued.includes(letter)) {
        if (spec.refused(`-${letter}`)) return false;
        continue;
      }
      let value = arg.value.slice(k + 1);
      if (value === "") {
        const next = args[++i];
        if (!next?.static) return false;
        value = next.value;
      }
      if (spec.refused(`-${letter}`, value)) return false;
      break;
    }
  }
  return true;
}
