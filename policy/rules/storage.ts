import { finding, hasOption } from "../command-view.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** ZFS, LVM, RAID, filesystems and mounts. */

/** LVM reporting commands; target-check refuses them inside containers too. */
export const LVM_REPORTS = [
  "lvs",
  "vgs",
  "pvs",
  "lvdisplay",
  "vgdisplay",
  "pvdisplay",
  "lvscan",
  "vgscan",
  "pvscan",
];
const LVM_READ = [...LVM_REPORTS, "lvmdiskscan", "lvmconfig"];
const LVM_WRITE = [
  "lvcreate",
  "lvextend",
  "lvresize",
  "lvchange",
  "lvrename",
  "lvconvert",
  "vgcreate",
  "vgextend",
  "vgchange",
  "vgrename",
  "vgimport",
  "vgexport",
  "vgcfgrestore",
  "pvchange",
  "pvresize",
  "pvmove",
  "vgmerge",
  "vgsplit",
  "vgreduce",
];
const LVM_DESTROY = ["lvremove", "vgremove", "pvremove", "lvreduce", "pvcreate"];

const zfsRule: CommandRule = {
  names: ["zfs"],
  what: "manages ZFS datasets",
  risk: "config_mutation",
  whenBare: "read_only",
  dryRun: ["-n"],
  subcommands: {
    readOnly: [
      "list",
      "get",
      "holds",
      "diff",
      "userspace",
      "groupspace",
      "projectspace",
      "version",
      "help",
      "send",
      "wait",
    ],
    mutating: [
      "set",
      "create",
      "snapshot",
      "snap",
      "clone",
      "rename",
      "mount",
      "unmount",
      "umount",
      "receive",
      "recv",
      "promote",
      "inherit",
      "hold",
      "release",
      "allow",
      "unallow",
      "load-key",
      "unload-key",
      "change-key",
      "share",
      "unshare",
      "bookmark",
      "upgrade",
      "jail",
      "unjail",
      "project",
      "redact",
    ],
    destructive: ["destroy", "rollback"],
  },
  refine: (view) =>
    ["receive", "recv"].includes(matchSubcommand(zfsRule, view) ?? "") && hasOption(view.args, ["-F"])
      ? [
          finding(
            "destructive",
            `${quoteSegment(view.text)}: \`-F\` rolls back and overwrites the target dataset (destructive)`,
          ),
        ]
      : [],
  examples: [
    ["zfs list -t snapshot", "read_only"],
    ["zfs get compression tank/data", "read_only"],
    ["zfs snapshot tank/data@pre", "config_mutation"],
    ["zfs destroy tank/old", "destructive"],
    ["zfs destroy -nv tank/old", "read_only"],
    ["zfs rollback tank/data@pre", "destructive"],
    ["zfs send tank/a@s | ssh b zfs recv -F tank/a", "destructive"],
  ],
};

export const STORAGE_RULES: CommandRule[] = [
  {
    names: ["ceph"],
    what: "manages the Ceph cluster",
    risk: "config_mutation",
    flags: { readOnly: ["-s", "--status"] },
    subcommands: {
      readOnly: [
        "status",
        "health",
        "df",
        "osd tree",
        "osd df",
        "osd stat",
        "osd ls",
        "osd pool ls",
        "osd pool get",
        "mon stat",
        "mon dump",
        "pg stat",
        "pg dump",
        "versions",
        "version",
        "fs ls",
        "fs status",
        "auth ls",
        "quorum_status",
        "log last",
      ],
      destructive: [
        "osd pool delete",
        "osd pool rm",
        "osd purge",
        "osd destroy",
        "osd rm",
        "fs rm",
        "auth del",
        "mon remove",
        "pg repair",
      ],
    },
    examples: [
      ["ceph status", "read_only"],
      ["ceph -s", "read_only"],
      ["ceph osd tree", "read_only"],
      ["ceph osd pool delete rbd rbd --yes-i-really-really-mean-it", "destructive"],
      ["ceph osd out 3", "config_mutation"],
    ],
  },
  {
    names: ["rbd"],
    what: "manages Ceph block images",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["ls", "list", "info", "du", "status", "snap ls", "snap list", "showmapped", "device list"],
      destructive: ["rm", "remove", "snap rm", "snap purge", "snap rollback", "trash purge"],
    },
    examples: [
      ["rbd ls -p rbd", "read_only"],
      ["rbd rm rbd/vm-100-disk-0", "destructive"],
      ["rbd snap create rbd/x@s", "config_mutation"],
    ],
  },
  zfsRule,
  {
    names: ["zpool"],
    what: "manages ZFS pools",
    risk: "config_mutation",
    whenBare: "read_only",
    subcommands: {
      readOnly: ["list", "status", "get", "iostat", "history", "events", "version", "help", "wait"],
      mutating: [
        "scrub",
        "set",
        "import",
        "export",
        "online",
        "offline",
        "clear",
        "trim",
        "add",
        "attach",
        "replace",
        "resilver",
        "upgrade",
        "reguid",
        "initialize",
        "detach",
        "remove",
        "split",
        "reopen",
        "sync",
        "checkpoint",
      ],
      destructive: ["destroy", "labelclear", "create"],
    },
    examples: [
      ["zpool status -x", "read_only"],
      ["zpool list -v", "read_only"],
      ["zpool scrub tank", "config_mutation"],
      ["zpool destroy tank", "destructive"],
      ["zpool create -f tank mirror /dev/sdb /dev/sdc", "destructive"],
    ],
  },
  {
    names: LVM_READ,
    what: "reports LVM state",
    risk: "read_only",
    examples: [
      ["lvs -a", "read_only"],
      ["vgs", "read_only"],
    ],
  },
  {
    names: LVM_WRITE,
    what: "changes LVM volumes",
    risk: "config_mutation",
    examples: [["lvextend -L +10G /dev/pve/data", "config_mutation"]],
  },
  {
    names: LVM_DESTROY,
    what: "removes or shrinks LVM volumes, losing data",
    risk: "destructive",
    examples: [
      ["lvremove -y /dev/pve/vm-100-disk-0", "destructive"],
      ["pvcreate /dev/sdb", "destructive"],
    ],
  },
  {
    names: ["mount"],
    what: "mounts a filesystem",
    risk: "config_mutation",
    whenBare: "read_only",
    flags: {
      readOnly: ["-l", "--show-labels"],
      mutating: ["-a", "--all"],
    },
    examples: [
      ["mount", "read_only"],
      ["mount | grep nfs", "read_only"],
      ["mount -a", "config_mutation"],
      ["mount -l -t nfs4", "read_only"],
      ["mount -o remount,rw /", "config_mutation"],
      ["mount /dev/sdb1 /mnt", "config_mutation"],
    ],
  },
  {
    names: ["umount", "fusermount"],
    what: "unmounts a filesystem",
    risk: "config_mutation",
    flags: { destructive: ["-a", "--all"] },
    // The root filesystem (or every filesystem) unmounted, lazily or not, takes the machine with it.
    refine: (view) =>
      view.args.some((arg) => /^\/+$/.test(arg.value) || /^\/+(usr|var|boot|etc)\/*$/.test(arg.value))
        ? [
            finding(
              "destructive",
              `${quoteSegment(view.text)} unmounts a filesystem the system runs from (destructive)`,
            ),
          ]
        : [],
    examples: [
      ["umount /mnt/backup", "config_mutation"],
      ["umount -l /mnt/nfs", "config_mutation"],
      ["umount -l /", "destructive"],
      ["umount -a", "destructive"],
    ],
  },
  {
    names: ["exportfs"],
    what: "lists NFS exports",
    risk: "read_only",
    flags: { mutating: ["-a", "-r", "-u", "-o", "-f", "-i"] },
    refine: (view) =>
      view.args.some((arg) => arg.value.includes(":") && !arg.value.startsWith("-"))
        ? [finding("config_mutation", `${quoteSegment(view.text)} changes an NFS export (config_mutation)`)]
        : [],
    examples: [
      ["exportfs -v", "read_only"],
      ["exportfs", "read_only"],
      ["exportfs -ra", "config_mutation"],
      ["exportfs -u 10.0.0.5:/srv/nfs", "config_mutation"],
    ],
  },
  {
    names: ["mdadm"],
    what: "manages software RAID",
    risk: "config_mutation",
    flags: {
      readOnly: ["--detail", "-D", "--examine", "-E", "--query", "-Q"],
      destructive: ["--create", "-C", "--zero-superblock", "--remove", "--fail", "-f", "--stop", "-S"],
    },
    examples: [
      ["mdadm --detail /dev/md0", "read_only"],
      ["mdadm --zero-superblock /dev/sdb1", "destructive"],
      ["mdadm --stop /dev/md0", "destructive"],
    ],
  },
  {
    names: ["btrfs"],
    what: "manages btrfs",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "subvolume list",
        "subvolume show",
        "filesystem show",
        "filesystem df",
        "filesystem usage",
        "device stats",
        "scrub status",
        "balance status",
        "qgroup show",
        "property get",
        "inspect-internal",
        "version",
      ],
      destructive: ["subvolume delete", "device remove", "device delete", "check --repair"],
    },
    examples: [
      ["btrfs filesystem usage /", "read_only"],
      ["btrfs subvolume delete /mnt/@old", "destructive"],
    ],
  },
  {
    names: ["tune2fs", "dumpe2fs", "xfs_info", "xfs_admin"],
    what: "tunes a filesystem",
    risk: "config_mutation",
    flags: { readOnly: ["-l", "-h"] },
    examples: [
      ["tune2fs -l /dev/sda1", "read_only"],
      ["xfs_info /", "config_mutation"],
    ],
  },
  {
    names: ["fsck", "e2fsck", "xfs_repair", "fsck.ext4"],
    what: "checks and repairs a filesystem",
    risk: "config_mutation",
    dryRun: ["-n"],
    flags: { destructive: ["-L"] },
    examples: [
      ["fsck -n /dev/sdb1", "read_only"],
      ["xfs_repair -L /dev/sdb1", "destructive"],
    ],
  },
  {
    names: ["resize2fs", "xfs_growfs", "growpart"],
    what: "resizes a filesystem",
    risk: "config_mutation",
    examples: [["resize2fs /dev/pve/data", "config_mutation"]],
  },
  {
    names: ["cryptsetup"],
    what: "manages encrypted volumes",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["status", "luksDump", "isLuks", "benchmark", "--version"],
      destructive: ["luksFormat", "erase", "luksErase", "luksKillSlot", "luksRemoveKey", "reencrypt"],
    },
    examples: [
      ["cryptsetup status cryptroot", "read_only"],
      ["cryptsetup luksFormat /dev/sdb", "destructive"],
    ],
  },
  {
    names: ["smartctl", "hdparm", "nvme"],
    what: "talks to disks",
    risk: "config_mutation",
    flags: {
      readOnly: ["-a", "-i", "-H", "-A", "-x", "-l", "--all", "--info", "--health", "--scan", "-I", "-C"],
      destructive: ["--security-erase", "--security-erase-enhanced", "--trim-sector-ranges"],
    },
    subcommands: {
      readOnly: ["list", "smart-log", "id-ctrl", "id-ns", "error-log", "list-subsys"],
      destructive: ["format", "sanitize", "delete-ns"],
    },
    examples: [
      ["smartctl -a /dev/sda", "read_only"],
      ["hdparm -I /dev/sda", "read_only"],
      ["nvme list", "read_only"],
      ["nvme format /dev/nvme0n1", "destructive"],
      ["nvme format /dev/nvme0n1 -l 0", "destructive"],
    ],
  },
];
