import type { CommandView } from "../command-view.ts";
import { finding, hasOption, positionals } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Disks and partitions, power, processes and accounts. */

const GENTLE_SIGNALS = new Set([
  "HUP",
  "SIGHUP",
  "1",
  "USR1",
  "SIGUSR1",
  "10",
  "USR2",
  "SIGUSR2",
  "12",
  "0",
  "WINCH",
  "SIGWINCH",
  "CONT",
  "SIGCONT",
]);

/** Processes whose end cuts the operator off: the login daemon, init and the service manager. */
const ACCESS_PROCESSES =
  /^(sshd|ssh|init|systemd|systemd-logind|dbus-daemon|dbus|dropbear|pveproxy|pvedaemon|tailscaled|wireguard|wg-quick)$/;

function killRefine(view: CommandView): Finding[] {
  if (view.name !== "kill") {
    const named = view.args.find((arg) => !arg.value.startsWith("-") && ACCESS_PROCESSES.test(arg.value));
    return named
      ? [
          finding(
            "destructive",
            `${quoteSegment(view.text)} ends \`${named.value}\`, which can cut off access to the machine (destructive)`,
          ),
        ]
      : [];
  }
  let args = view.args;
  let signal = "TERM";
  const first = args[0]?.value ?? "";
  if (first === "-s" || first === "-n") {
    signal = args[1]?.value ?? "TERM";
    args = args.slice(2);
  } else if (first.startsWith("-") && first !== "--" && first.length > 1) {
    signal = first.slice(1);
    args = args.slice(1);
  }
  const pids = args.filter((arg) => arg.value !== "--");
  if (
    !GENTLE_SIGNALS.has(signal.toUpperCase()) &&
    pids.some((pid) => pid.value === "1" || pid.value === "-1")
  ) {
    return [finding("destructive", `${quoteSegment(view.text)} signals init or every process (destructive)`)];
  }
  return [];
}

const PARTED_PRINT_WORDS = /^(print|unit|[kKMGT]i?B|s|%|cyl|chs|compact|free|list|all|devices)$/;

function partedRefine(view: CommandView): Finding[] {
  const q = quoteSegment(view.text);
  const words = positionals(view.args, ["-a", "--align"])
    .slice(1)
    .map((arg) => arg.value);
  if (
    hasOption(view.args, ["-l", "--list"]) ||
    (words.length > 0 && words.every((word) => PARTED_PRINT_WORDS.test(word)))
  ) {
    return [finding("read_only", `${q} only prints partition tables (read-only)`)];
  }
  return [finding("destructive", `${q} rewrites partition tables (destructive)`)];
}

function initRefine(view: CommandView): Finding[] {
  const level = view.args[0]?.value;
  if (level === "0" || level === "6") {
    return [finding("destructive", `${quoteSegment(view.text)} halts or reboots the machine (destructive)`)];
  }
  return [];
}

export const SYSTEM_RULES: CommandRule[] = [
  {
    names: [
      "mkfs",
      "mkdosfs",
      "mkntfs",
      "mkfs.f2fs",
      "mkfs.msdos",
      "mkfs.jfs",
      "mkfs.xfs",
      "mkfs.btrfs",
      "mkfs.vfat",
      "mkfs.fat",
      "mkfs.ntfs",
      "mkfs.exfat",
      "mkswap",
      "blkdiscard",
    ],
    what: "formats a device, erasing it",
    risk: "destructive",
    examples: [
      ["mkfs.xfs /dev/sdb1", "destructive"],
      ["mkswap /dev/sdc2", "destructive"],
    ],
  },
  {
    names: ["wipefs"],
    what: "lists filesystem signatures",
    risk: "read_only",
    dryRun: ["-n", "--no-act"],
    flags: { destructive: ["-a", "--all", "-o", "--offset"] },
    examples: [
      ["wipefs -a /dev/sdb", "destructive"],
      ["wipefs -n -a /dev/sdb", "read_only"],
      ["wipefs /dev/sdb", "read_only"],
    ],
  },
  {
    names: ["fdisk", "gdisk", "cfdisk"],
    what: "rewrites partition tables",
    risk: "destructive",
    flags: { readOnly: ["-l", "--list"] },
    examples: [
      ["fdisk -l", "read_only"],
      ["gdisk -l /dev/sda", "read_only"],
      ["fdisk /dev/sdb", "destructive"],
      ["cfdisk -l /dev/sdb", "read_only"],
    ],
  },
  {
    // Each partitioner has its own letters: `-d` dumps for sfdisk but deletes a partition for sgdisk.
    names: ["sfdisk"],
    what: "rewrites partition tables",
    risk: "destructive",
    flags: {
      readOnly: ["-l", "--list", "-d", "--dump", "-J", "--json", "-V", "--verify", "-s", "--show-size"],
      destructive: [
        "--delete",
        "-N",
        "--part-type",
        "--part-uuid",
        "--part-label",
        "--part-attrs",
        "--relocate",
      ],
    },
    dryRun: ["-n", "--no-act"],
    examples: [
      ["sfdisk -d /dev/sda", "read_only"],
      ["sfdisk -l /dev/sda", "read_only"],
      ["sfdisk --delete /dev/sda 1", "destructive"],
      ["sfdisk /dev/sdb < layout.txt", "destructive"],
    ],
  },
  {
    names: ["sgdisk"],
    what: "rewrites partition tables",
    risk: "destructive",
    flags: {
      readOnly: ["-p", "--print", "-i", "--info", "-v", "--verify", "-O", "--print-mbr", "-b", "--backup"],
      mutating: ["-b", "--backup"],
      destructive: [
        ...["-d", "--delete", "-o", "--clear", "-Z", "--zap-all", "-z", "--zap", "-n", "--new"],
        ...["-t", "--typecode", "-c", "--change-name", "-g", "--mbrtogpt", "-l", "--load-backup"],
        ...["-R", "--replicate", "-G", "--randomize-guids", "-U", "--disk-guid", "-u", "--partition-guid"],
        ...["-A", "--attributes", "-s", "--sort", "-r", "--transpose", "-e", "--move-second-header"],
        ...["-x", "--change-name", "-m", "--gpttombr", "-h", "--hybrid", "-N", "--largest-new"],
      ],
    },
    dryRun: ["-P", "--pretend"],
    examples: [
      ["sgdisk -p /dev/sda", "read_only"],
      ["sgdisk -d 1 /dev/sda", "destructive"],
      ["sgdisk -Z /dev/sdb", "destructive"],
      ["sgdisk -n 1:0:0 -t 1:8300 /dev/sdb", "destructive"],
      ["sgdisk -p -o /dev/sdb", "destructive"],
      ["sgdisk -b /root/sda.gpt /dev/sda", "config_mutation"],
      ["sgdisk -P -d 1 /dev/sda", "read_only"],
    ],
  },
  {
    names: ["parted"],
    what: "rewrites partition tables",
    risk: "read_only",
    wrapper: true,
    refine: partedRefine,
    examples: [
      ["parted -l", "read_only"],
      ["parted /dev/sda print", "read_only"],
      ["parted -s /dev/sdb mklabel gpt", "destructive"],
      ["parted /dev/sdb", "destructive"],
    ],
  },
  {
    names: ["partprobe"],
    what: "re-reads partition tables",
    risk: "config_mutation",
    examples: [["partprobe /dev/sdb", "config_mutation"]],
  },
  {
    names: ["reboot", "shutdown", "poweroff", "halt", "kexec"],
    what: "stops or restarts the machine",
    risk: "destructive",
    flags: { readOnly: ["--help"] },
    examples: [
      ["reboot", "destructive"],
      ["shutdown -h now", "destructive"],
      ["ls; reboot", "destructive"],
    ],
  },
  {
    names: ["init", "telinit"],
    what: "changes the runlevel",
    risk: "config_mutation",
    refine: initRefine,
    examples: [
      ["init 6", "destructive"],
      ["telinit q", "config_mutation"],
    ],
  },
  {
    names: ["kill", "pkill", "killall", "skill"],
    what: "signals processes",
    risk: "config_mutation",
    flags: { readOnly: ["-l", "--list", "-0"] },
    refine: killRefine,
    examples: [
      ["kill 1234", "config_mutation"],
      ["kill -9 -1", "destructive"],
      ["kill -0 1234", "read_only"],
      ["pkill -f rsync", "config_mutation"],
      ["pkill -9 sshd", "destructive"],
      ["killall systemd", "destructive"],
    ],
  },
  {
    names: ["userdel", "groupdel", "deluser", "delgroup"],
    what: "deletes accounts",
    risk: "destructive",
    examples: [["userdel -r bob", "destructive"]],
  },
];
