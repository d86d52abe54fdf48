import type { ToolSpec } from "../tool-spec.ts";

const ZFS_LIST: ToolSpec = { flags: "rHpd", valued: "otsSd", anyOption: true };

const LVM_REPORT: ToolSpec = {
  flags: "av",
  valued: "oOS",
  long: ["--noheadings", "--units", "--all", "--segments", "--nosuffix", "--separator", "--reportformat"],
  longValued: ["--units", "--options", "--sort", "--separator", "--reportformat", "--select"],
};

/** Disks, volumes, pools, mounts and network file systems. */
export const STORAGE_TOOLS: Record<string, ToolSpec> = {
  zfs: { sub: { list: ZFS_LIST, get: { ...ZFS_LIST, flags: "rHpd", valued: "otsd", anyOption: true } } },
  zpool: {
    sub: {
      status: { flags: "xvPpLgDtT", valued: "Tc" },
      list: { flags: "HgLpPv", valued: "oT" },
      iostat: { flags: "vlHgLpPqryw", valued: "T" },
      history: { flags: "il" },
      get: { flags: "Hp", valued: "o" },
    },
  },
  lvs: LVM_REPORT,
  vgs: LVM_REPORT,
  pvs: LVM_REPORT,
  lvdisplay: { flags: "acmv", long: ["--maps", "--units"] },
  vgdisplay: { flags: "acsv" },
  pvdisplay: { flags: "acmsv" },
  lsblk: {
    flags: "abdDfimnlpPrsStOJzZ",
    valued: "oxeIE",
    long: ["--json", "--fs", "--list", "--paths", "--bytes", "--nodeps", "--output-all"],
    longValued: ["--output", "--sort"],
  },
  blkid: {
    flags: "gilLopUsV",
    valued: "stU",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*[cw]/.test(a.value))
        ? "blkid -c/-w writes its cache file"
        : null,
  },
  smartctl: {
    flags: "aHixAcjq",
    valued: "dlTq",
    long: ["--all", "--health", "--info", "--xall", "--attributes", "--capabilities", "--json", "--scan"],
    longValued: ["--device", "--log", "--tolerance"],
  },
  mdadm: {
    flags: "DEQv",
    long: ["--detail", "--examine", "--query", "--scan", "--detail-platform", "--verbose", "--brief"],
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
  findmnt: {
    flags: "AbcDfklmnrsuJ",
    valued: "oOtSTFNM",
    long: ["--json", "--list", "--noheadings", "--real", "--pseudo"],
    longValued: ["--types", "--output", "--source", "--target", "--mountpoint"],
  },
  mount: { flags: "lnv", valued: "t", maxPositionals: 0 },
  exportfs: { flags: "vs", maxPositionals: 0 },
  showmount: { flags: "ead", long: ["--exports", "--all", "--directories"] },
  nfsstat: { flags: "scnrlmvZ234o", valued: "o" },
  rpcinfo: { flags: "psmlT" },
};
