import type { JailGrant } from "../../jail-grant.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { BLOCK_DEVICES, blockDevicesUnlessNamed, hasFlag } from "./grant-helpers.ts";
import { findmntGrants } from "./mount-table.ts";

const ZFS: readonly JailGrant[] = [{ resource: "zfs" }];
const ZFS_LIST: ToolSpec = { flags: "rHpd", valued: "otsSd", anyOption: true };

const LVM_REPORT: ToolSpec = {
  flags: "av",
  valued: "oOS",
  long: ["--noheadings", "--units", "--all", "--segments", "--nosuffix", "--separator", "--reportformat"],
  longValued: ["--units", "--options", "--sort", "--separator", "--reportformat", "--select"],
  grants: BLOCK_DEVICES,
};

/**
 * `smartctl -l NAME` prints a log; `-l scterc,70,70` sets the drive's error recovery time, and
 * `-g`/`-s` get and set drive settings: only the reading forms.
 */
const SMART_LOGS =
  /^(error|xerror(,[0-9]+)?(,error)?|selftest|xselftest(,[0-9]+)?(,selftest)?|selective|directory(,[gs])?|background|sasphy|sataphy|scttemp|scttempsts|scttemphist|scterc|devstat(,[0-9]+)?|defects|ssd|gplog,[0-9a-fx]+(,[0-9]+(-[0-9]+)?)?|smartlog,[0-9a-fx]+(,[0-9]+(-[0-9]+)?)?|nvmelog,[0-9a-fx]+,[0-9]+|farm)$/;
const SMART_GET = /^(all|aam|apm|dsn|lookahead|security|wcache|rcache|wcreorder|wcache-sct)$/;

/** `zfs destroy -n`: the dry run prints what would go and destroys nothing. */
function dryRunOnly(what: string) {
  return (args: readonly ProofWord[]) =>
    args.some((arg) => arg.static && /^-[a-zA-Z]*n/.test(arg.value) && !arg.value.startsWith("--"))
      ? null
      : `\`${what}\` without -n destroys`;
}

/** Disks, volumes, pools, mounts and network file systems. */
export const STORAGE_TOOLS: Record<string, ToolSpec> = {
  zfs: {
    grants: ZFS,
    sub: {
      list: ZFS_LIST,
      get: { ...ZFS_LIST, flags: "rHpd", valued: "otsd", anyOption: true },
      version: {},
      destroy: { flags: "nvpfrRd", check: dryRunOnly("zfs destroy") },
    },
  },
  zpool: {
    grants: ZFS,
    // Not `-c SCRIPT` (status, iostat): it runs the named script from zpool.d or ~/.zpool.d.
    sub: {
      status: { flags: "xvPpLgDtesi", valued: "T" },
      list: { flags: "HgLpPv", valued: "oT" },
      iostat: { flags: "vlHgLpPqryw", valued: "T" },
      history: { flags: "il" },
      get: { flags: "Hp", valued: "o" },
      version: {},
    },
  },
  lvs: LVM_REPORT,
  vgs: LVM_REPORT,
  pvs: LVM_REPORT,
  lvdisplay: { flags: "acmv", long: ["--maps", "--units"], grants: BLOCK_DEVICES },
  vgdisplay: { flags: "acsv", grants: BLOCK_DEVICES },
  pvdisplay: { flags: "acmsv", grants: BLOCK_DEVICES },
  lsblk: {
    flags: "abdDfimnlpPrsStOJzZ",
    valued: "oxeIE",
    long: ["--json", "--fs", "--list", "--paths", "--bytes", "--nodeps", "--output-all"],
    longValued: ["--output", "--sort"],
    // Filesystem columns come from udev's database, or from probing every disk where it is absent.
    grants: (args) =>
      hasFlag(args, "fO", ["--fs", "--output-all"]) ||
      args.some((arg) => /FSTYPE|FSVER|LABEL|UUID|PTTYPE/i.test(arg.value) && !arg.value.startsWith("/"))
        ? BLOCK_DEVICES
        : [],
  },
  blkid: {
    flags: "gilLopUsV",
    valued: "stU",
    grants: blockDevicesUnlessNamed,
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*[cwg]/.test(a.value))
        ? "blkid -c/-w/-g writes its cache file (-g garbage-collects it)"
        : null,
  },
  smartctl: {
    flags: "aHixAcjq",
    valued: "dlTqgn",
    long: ["--all", "--health", "--info", "--xall", "--attributes", "--capabilities", "--json", "--scan"],
    longValued: ["--device", "--log", "--tolerance", "--get", "--nocheck"],
    values: {
      "-l": (v) => SMART_LOGS.test(v),
      "--log": (v) => SMART_LOGS.test(v),
      "-g": (v) => SMART_GET.test(v),
      "--get": (v) => SMART_GET.test(v),
    },
    grants: blockDevicesUnlessNamed,
  },
  mdadm: {
    flags: "DEQv",
    long: ["--detail", "--examine", "--query", "--scan", "--detail-platform", "--verbose", "--brief"],
    grants: blockDevicesUnlessNamed,
  },
  btrfs: {
    sub: {
      filesystem: { sub: { usage: { flags: "bhHkmgtT" }, show: { flags: "dm" }, df: { flags: "bhHkmgtT" } } },
      subvolume: { sub: { list: { flags: "aopcgusqRt" }, show: {} } },
      device: {
        sub: {
          stats: {
            flags: "c",
            check: (args) =>
              args.some((a) => a.value.includes("z")) ? "btrfs device stats -z resets the counters" : null,
          },
        },
      },
      scrub: { sub: { status: { flags: "dRH" } } },
      balance: { sub: { status: { flags: "v" } } },
      qgroup: { sub: { show: { flags: "pcreF" } } },
    },
  },
  // Listing the kernel's table, outside the jail by name: the jail's table is its own (mount-table.ts).
  findmnt: {
    flags: "AbcDfklmnrsuJ",
    valued: "oOtSTFNM",
    long: ["--json", "--list", "--noheadings", "--real", "--pseudo"],
    longValued: ["--types", "--output", "--source", "--target", "--mountpoint"],
    grants: findmntGrants,
  },
  mount: { flags: "lnv", valued: "t", maxPositionals: 0 },
  exportfs: { flags: "vs", maxPositionals: 0 },
  showmount: { network: true, flags: "ead", long: ["--exports", "--all", "--directories"] },
  nfsstat: { flags: "scnrlmvZ234o", valued: "o" },
  rpcinfo: { network: true, flags: "psmlT" },
};
