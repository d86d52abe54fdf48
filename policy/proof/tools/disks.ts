import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { BLOCK_DEVICES, blockDevicesUnlessNamed, hasFlag } from "./grant-helpers.ts";

/** One of the options must be there: the tool's reading mode (`fdisk -l`, `mke2fs -n`). */
function requires(what: string, short: string, long: readonly string[] = []) {
  return (args: readonly ProofWord[]): Verdict =>
    hasFlag(args, short, long)
      ? null
      : `\`${what}\` is proven read-only only with ${[...short]
          .map((c) => `-${c}`)
          .concat(long)
          .join(" or ")}`;
}

/**
 * `parted DEVICE COMMAND…` runs its commands on the disk: only `print` (with `unit U` before it,
 * and `free`/`all`/`list`) reads. `parted -l` prints every disk.
 */
function partedCommands(args: readonly ProofWord[]): Verdict {
  const words = args.filter(
    (arg) => !(arg.static && /^-[slmaj]+$|^--(script|list|machine|json)$/.test(arg.value)),
  );
  if (hasFlag(args, "l", ["--list"])) return words.length === 0 ? null : "`parted -l` takes no other words";
  const [device, ...script] = words;
  if (!device?.static || !device.value.startsWith("/dev/"))
    return "`parted` is proven only on a named /dev disk";
  if (script.length === 0) return "`parted DEVICE` alone reads commands from its input";
  for (let i = 0; i < script.length; i++) {
    const word = script[i] as ProofWord;
    if (!word.static) return `the parted command \`${word.raw}\` is only known at run time`;
    if (
      word.value === "unit" &&
      /^(s|B|kB|MB|MiB|GB|GiB|TB|TiB|%|cyl|chs|compact)$/.test(script[i + 1]?.value ?? "")
    ) {
      i++;
      continue;
    }
    if (!/^(print|p|free|all|list|devices)$/.test(word.value))
      return `\`parted … ${word.value}\` is not a parted command proven read-only (only print, unit)`;
  }
  return null;
}

/** `dd` reads with `if=` and a `count=`, and writes to its standard output only. */
const DD_OPERAND = /^(if|bs|ibs|count|skip|iseek|iflag|status)=./;
function ddOperands(args: readonly ProofWord[]): Verdict {
  for (const arg of args) {
    if (!arg.static || !DD_OPERAND.test(arg.value))
      return `\`dd ${arg.raw}\` is not an operand proven read-only (if=, bs=, count=, skip=, iflag=, status=)`;
  }
  if (!args.some((arg) => arg.value.startsWith("if="))) return "`dd` without `if=` reads its standard input";
  if (!args.some((arg) => /^count=[0-9]+[a-zA-Z]*$/.test(arg.value)))
    return "`dd` without `count=` reads the whole device (and /dev/zero never ends)";
  return null;
}

const NVME_OUTPUT = {
  valued: "o",
  longValued: ["--output-format"],
  flags: "Hv",
  long: ["--human-readable", "--verbose"],
};

/** Disks and partition tables, read: the devices named are granted by the proof (grants.ts). */
export const DISK_TOOLS: Record<string, ToolSpec> = {
  nvme: {
    sub: {
      list: { ...NVME_OUTPUT, grants: BLOCK_DEVICES },
      "list-subsys": { ...NVME_OUTPUT, grants: BLOCK_DEVICES },
      "smart-log": { ...NVME_OUTPUT, valued: "on", longValued: ["--output-format", "--namespace-id"] },
      "id-ctrl": NVME_OUTPUT,
      "id-ns": { ...NVME_OUTPUT, valued: "on", longValued: ["--output-format", "--namespace-id"] },
      "error-log": { ...NVME_OUTPUT, valued: "oe", longValued: ["--output-format", "--log-entries"] },
      "fw-log": NVME_OUTPUT,
      version: {},
      help: {},
    },
  },
  fdisk: {
    flags: "lxu",
    valued: "obL",
    long: ["--list", "--list-details", "--bytes"],
    longValued: ["--output", "--sector-size", "--color"],
    // `--color=WHEN`, `-LWHEN`: the next word is never their value (`--color --delete` deletes)
    optionalValue: { "--color": () => false, "-L": () => false },
    grants: blockDevicesUnlessNamed,
    check: requires("fdisk", "lx", ["--list", "--list-details"]),
  },
  sfdisk: {
    flags: "ldJsVFrX",
    valued: "oX",
    long: ["--list", "--dump", "--json", "--show-size", "--verify", "--list-free", "--list-types", "--bytes"],
    longValued: ["--output", "--label", "--color"],
    optionalValue: { "--color": () => false },
    grants: blockDevicesUnlessNamed,
    // Without one of these, sfdisk reads a partition table from its input and writes it.
    check: requires("sfdisk", "ldJsVFr", [
      "--list",
      "--dump",
      "--json",
      "--show-size",
      "--verify",
      "--list-free",
    ]),
  },
  parted: {
    flags: "slmj",
    long: ["--script", "--list", "--machine", "--json"],
    check: partedCommands,
    grants: blockDevicesUnlessNamed,
    anyOption: false,
  },
  // Without -a or -o, wipefs lists the signatures it finds; -b writes backups to $HOME.
  wipefs: {
    flags: "Jinpf",
    valued: "Ot",
    long: ["--json", "--noheadings", "--no-act", "--parsable"],
    longValued: ["--output", "--types"],
  },
  dd: { check: ddOperands },
  tune2fs: { flags: "l", check: requires("tune2fs", "l") },
  dumpe2fs: { flags: "hxbg" },
  e2fsck: { flags: "nfvt", check: requires("e2fsck", "n") },
  "fsck.ext4": { flags: "nfvt", check: requires("fsck.ext4", "n") },
  // -n: shows what it would do and writes nothing.
  mke2fs: { flags: "nqFv", valued: "tbTLmiIN", check: requires("mke2fs", "n") },
  "mkfs.ext4": { flags: "nqFv", valued: "tbTLmiIN", check: requires("mkfs.ext4", "n") },
  // -I, -i identify, -g geometry, -C power mode: questions; their other flags set drive state.
  hdparm: { flags: "IigC" },
};
