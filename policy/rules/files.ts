import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { finding, hasOption, optionValue, positionals } from "../command-view.ts";
import { isCriticalWriteTarget, isSystemFile, isTopLevelTree } from "../paths.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** File and text tools that only read, and the ones that write, move or delete files. */

const READ_ONLY_TOOLS = [
  "cat",
  "tac",
  "ls",
  "dir",
  "vdir",
  "stat",
  "df",
  "du",
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "head",
  "tail",
  "wc",
  "ps",
  "pgrep",
  "pidof",
  "netstat",
  "free",
  "uptime",
  "id",
  "whoami",
  "who",
  "w",
  "last",
  "lastb",
  "lastlog",
  "uname",
  "echo",
  "printf",
  "true",
  "false",
  "test",
  "[",
  "pwd",
  "which",
  "whereis",
  "type",
  "file",
  "readlink",
  "realpath",
  "basename",
  "dirname",
  "cut",
  "tr",
  "column",
  "lsblk",
  "blkid",
  "lscpu",
  "lsusb",
  "lspci",
  "lsmod",
  "lsof",
  "lsns",
  "lsattr",
  "getfacl",
  "iostat",
  "vmstat",
  "mpstat",
  "sar",
  "pidstat",
  "nproc",
  "printenv",
  "getent",
  "sensors",
  "zcat",
  "xzcat",
  "bzcat",
  "zstdcat",
  "zless",
  "zmore",
  "md5sum",
  "sha1sum",
  "sha224sum",
  "sha256sum",
  "sha384sum",
  "sha512sum",
  "b2sum",
  "cksum",
  "diff",
  "cmp",
  "comm",
  "hexdump",
  "od",
  "strings",
  "nl",
  "rev",
  "fold",
  "fmt",
  "paste",
  "join",
  "seq",
  "sleep",
  "findmnt",
  "groups",
  "tty",
  "locale",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "read",
  "wait",
  "exit",
  "return",
  "break",
  "continue",
  ":",
  "history",
  "clear",
  "top",
  "htop",
  "btop",
  "atop",
  "iotop",
  "iftop",
  "nload",
  "ncdu",
  "pstree",
  "hostid",
  "arch",
  "systemd-analyze",
  "systemd-cgls",
  "systemd-cgtop",
  "smbstatus",
  "testparm",
  "showmount",
  "nfsstat",
  "rpcinfo",
  "pveversion",
  "numfmt",
  "expr",
  "base64",
  "base32",
  "getconf",
  "ulimit",
  "umask",
  "shopt",
  "set",
  "hash",
  "jobs",
  "let",
  "whois",
  "lsipc",
  "lslocks",
  "lsirq",
  "dmidecode",
  "inxi",
  "neofetch",
  "uptime",
  "look",
  "tput",
  "shuf",
  "factor",
  "users",
  "iperf3",
  "speedtest",
  "vnstat",
  "virt-what",
  "systemd-detect-virt",
  "lsb_release",
  "tracepath",
  "arping",
];

function lastPositional(view: CommandView, valueOptions: readonly string[] = []): Arg | undefined {
  const pos = positionals(view.args, valueOptions);
  return pos.length >= 2 ? pos[pos.length - 1] : undefined;
}

function copyRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const target =
    optionValue(view.args, ["-t", "--target-directory"]) ?? lastPositional(view, ["-t", "-S", "--suffix"]);
  const findings: Finding[] = [];
  if (target) findings.push(ctx.writeTo(target, quoteSegment(view.text)));
  if (view.name === "mv") {
    for (const source of positionals(view.args).slice(0, -1)) {
      if (source.dynamic === "none" && isCriticalWriteTarget(source.value)) {
        findings.push(
          finding(
            "destructive",
            `${quoteSegment(view.text)} moves away \`${source.value}\`, a system file (destructive)`,
          ),
        );
      }
    }
  }
  return findings;
}

function permissionsRefine(view: CommandView): Finding[] {
  const recursive = hasOption(view.args, ["-R", "--recursive"]);
  const targets = positionals(view.args, ["--reference"]).slice(1);
  for (const target of targets) {
    if (target.dynamic !== "none") continue;
    if ((recursive && isTopLevelTree(target.value)) || isSystemFile(target.value)) {
      return [
        finding(
          "destructive",
          `${quoteSegment(view.text)} changes ownership or permissions of \`${target.value}\`, which can break the system (destructive)`,
        ),
      ];
    }
  }
  return [];
}

function ddRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const output = view.args.find((arg) => arg.value.startsWith("of="));
  if (!output) return [];
  return [ctx.writeTo({ ...output, value: output.value.slice(3) }, quoteSegment(view.text))];
}

function teeRefine(view: CommandView, ctx: RuleContext): Finding[] {
  return positionals(view.args).map((file) => ctx.writeTo(file, quoteSegment(view.text)));
}

function sortRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const output = optionValue(view.args, ["-o", "--output"]);
  return output ? [ctx.writeTo(output, quoteSegment(view.text))] : [];
}

function uniqRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const output = positionals(view.args, [
    "-f",
    "-s",
    "-w",
    "--skip-fields",
    "--skip-chars",
    "--check-chars",
  ])[1];
  return output ? [ctx.writeTo(output, quoteSegment(view.text))] : [];
}

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

function killRefine(view: CommandView): Finding[] {
  if (view.name !== "kill") return [];
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

export const FILE_RULES: CommandRule[] = [
  {
    names: [...new Set(READ_ONLY_TOOLS)],
    what: "only reads",
    risk: "read_only",
    examples: [
      ["cat /etc/os-release", "read_only"],
      ["ls -la /srv", "read_only"],
      ["df -h", "read_only"],
      ["grep -r error /var/log/nginx", "read_only"],
      ["ps aux", "read_only"],
      ["ss -tlnp", "read_only"],
      ["echo hello > /tmp/x", "config_mutation"],
      ["cat x > /etc/passwd", "destructive"],
    ],
  },
  {
    names: ["less", "more", "most"],
    what: "pages through files",
    risk: "read_only",
    refine: (view) => {
      const start = view.args.find((arg) => arg.value.startsWith("+"));
      return start
        ? [
            finding(
              "config_mutation",
              `${quoteSegment(view.text)}: \`${start.raw}\` runs pager commands, which can start a shell (config_mutation)`,
            ),
          ]
        : [];
    },
    examples: [
      ["less /var/log/syslog", "read_only"],
      ["less +'!reboot' /etc/hosts", "config_mutation"],
    ],
  },
  {
    names: ["rg"],
    what: "searches files",
    risk: "read_only",
    refine: (view, ctx) => {
      const pre = optionValue(view.args, ["--pre"]);
      return pre
        ? ctx
            .classifyScript(pre.value, view.text, pre.dynamic)
            .concat(
              finding(
                "config_mutation",
                `${quoteSegment(view.text)}: \`--pre\` runs a program on every file (config_mutation)`,
              ),
            )
        : [];
    },
    examples: [
      ["rg -n error /var/log", "read_only"],
      ["rg --pre 'rm -f' x /srv", "destructive"],
    ],
  },
  {
    names: ["ss"],
    what: "lists sockets",
    risk: "read_only",
    flags: { mutating: ["-K", "--kill"] },
    examples: [
      ["ss -tlnp", "read_only"],
      ["ss -K dst 10.0.0.5", "config_mutation"],
    ],
  },
  {
    names: ["tree"],
    what: "lists directories",
    risk: "read_only",
    refine: (view, ctx) => {
      const out = optionValue(view.args, ["-o"]);
      return out ? [ctx.writeTo(out, quoteSegment(view.text))] : [];
    },
    examples: [
      ["tree -L 2 /etc/nginx", "read_only"],
      ["tree -o /tmp/tree.txt /srv", "config_mutation"],
    ],
  },
  {
    names: ["xxd"],
    what: "dumps bytes",
    risk: "read_only",
    refine: (view, ctx) => {
      const out = positionals(view.args, ["-c", "-g", "-l", "-s", "-o", "-n", "-cols", "-len", "-seek"])[1];
      return out ? [ctx.writeTo(out, quoteSegment(view.text))] : [];
    },
    examples: [
      ["xxd /bin/ls | head", "read_only"],
      ["xxd -r dump.hex /etc/passwd", "destructive"],
    ],
  },
  {
    names: ["nvidia-smi"],
    what: "reports GPU state",
    risk: "read_only",
    flags: {
      mutating: [
        "-r",
        "--gpu-reset",
        "-pl",
        "--power-limit",
        "-pm",
        "--persistence-mode",
        "-c",
        "--compute-mode",
        "-ac",
        "--applications-clocks",
        "-rac",
        "-lgc",
        "-rgc",
        "-e",
        "--ecc-config",
      ],
    },
    bundles: false,
    examples: [
      ["nvidia-smi", "read_only"],
      ["nvidia-smi -pl 200", "config_mutation"],
    ],
  },
  {
    names: ["date"],
    what: "prints the date",
    risk: "read_only",
    flags: { mutating: ["-s", "--set"] },
    examples: [
      ["date -u", "read_only"],
      ["date -s '2024-01-01'", "config_mutation"],
    ],
  },
  {
    names: ["hostname"],
    what: "sets the host name",
    risk: "config_mutation",
    whenBare: "read_only",
    valueOptions: ["-F", "--file"],
    examples: [
      ["hostname -I", "read_only"],
      ["hostname newname", "config_mutation"],
    ],
  },
  {
    names: ["dmesg"],
    what: "prints the kernel log",
    risk: "read_only",
    flags: { mutating: ["-c", "-C", "--clear", "--read-clear", "-n", "--console-level", "-D", "-E"] },
    examples: [
      ["dmesg -T | tail", "read_only"],
      ["dmesg -C", "config_mutation"],
    ],
  },
  {
    names: ["sort"],
    what: "sorts lines",
    risk: "read_only",
    refine: sortRefine,
    examples: [
      ["sort -u list.txt", "read_only"],
      ["sort -o /etc/hosts hosts.new", "config_mutation"],
    ],
  },
  {
    names: ["uniq"],
    what: "filters repeated lines",
    risk: "read_only",
    refine: uniqRefine,
    examples: [
      ["uniq -c a.txt", "read_only"],
      ["uniq a.txt b.txt", "config_mutation"],
    ],
  },
  {
    names: ["tee"],
    what: "copies stdin to stdout",
    risk: "read_only",
    refine: teeRefine,
    examples: [
      ["echo x | tee /tmp/a", "config_mutation"],
      ["cat x | sudo tee /etc/passwd", "destructive"],
      ["ls | tee", "read_only"],
    ],
  },
  {
    names: ["dd"],
    what: "copies data to stdout",
    risk: "read_only",
    refine: ddRefine,
    bundles: false,
    examples: [
      ["dd if=/dev/sda bs=512 count=1 | xxd", "read_only"],
      ["dd if=/dev/zero of=/dev/sda bs=1M", "destructive"],
      ["dd if=a.img of=b.img", "config_mutation"],
    ],
  },
  {
    names: ["cp", "mv", "install", "ln", "scp"],
    what: "copies, moves or links files",
    risk: "config_mutation",
    refine: copyRefine,
    examples: [
      ["cp a.conf /etc/nginx/nginx.conf", "config_mutation"],
      ["mv shadow.new /etc/shadow", "destructive"],
      ["mv /etc/passwd /tmp/", "destructive"],
      ["cp evil /boot/vmlinuz", "destructive"],
      ["cp -n a b", "config_mutation"],
      ["ln -sf /opt/app/current /opt/app/live", "config_mutation"],
    ],
  },
  {
    names: ["rsync"],
    what: "synchronises files",
    risk: "config_mutation",
    refine: (view, ctx) => {
      const shell = optionValue(view.args, ["-e", "--rsh", "--rsync-path"]);
      const remoteShell = shell ? ctx.classifyScript(shell.value, view.text, shell.dynamic) : [];
      return [
        ...copyRefine(view, ctx),
        ...remoteShell.filter((f) => f.risk === "destructive" || f.risk === "reject"),
      ];
    },
    dryRun: ["-n", "--dry-run"],
    flags: {
      destructive: [
        "--delete",
        "--delete-before",
        "--delete-during",
        "--delete-delay",
        "--delete-after",
        "--delete-excluded",
        "--remove-source-files",
      ],
    },
    examples: [
      ["rsync -a /src/ /dst/", "config_mutation"],
      ["rsync -a --delete /src/ /dst/", "destructive"],
      ["rsync -avn --delete /src/ /dst/", "read_only"],
    ],
  },
  {
    names: ["crontab"],
    what: "replaces a crontab",
    risk: "config_mutation",
    flags: { readOnly: ["-l"], destructive: ["-r"] },
    examples: [
      ["crontab -l", "read_only"],
      ["crontab -r", "destructive"],
      ["crontab new.cron", "config_mutation"],
    ],
  },
  {
    names: ["sysctl"],
    what: "reads kernel parameters",
    risk: "read_only",
    flags: { mutating: ["-w", "--write", "-p", "--load", "--system"] },
    refine: (view) =>
      view.args.some((arg) => arg.value.includes("=") && !arg.value.startsWith("-"))
        ? [finding("config_mutation", `${quoteSegment(view.text)} sets a kernel parameter (config_mutation)`)]
        : [],
    examples: [
      ["sysctl -a", "read_only"],
      ["sysctl net.ipv4.ip_forward", "read_only"],
      ["sysctl -w net.ipv4.ip_forward=1", "config_mutation"],
      ["sysctl vm.swappiness=10", "config_mutation"],
    ],
  },
  {
    names: ["swapon", "swapoff"],
    what: "enables or disables swap",
    risk: "config_mutation",
    flags: { readOnly: ["--show", "-s", "--summary"] },
    examples: [
      ["swapon --show", "read_only"],
      ["swapoff -a", "config_mutation"],
    ],
  },
  {
    names: [
      "mkdir",
      "touch",
      "chattr",
      "setfacl",
      "mkfifo",
      "mknod",
      "rmdir",
      "patch",
      "split",
      "csplit",
      "unzip",
      "zip",
      "7z",
      "logger",
      "wall",
      "useradd",
      "usermod",
      "groupadd",
      "groupmod",
      "passwd",
      "chpasswd",
      "chsh",
      "gpasswd",
      "adduser",
      "addgroup",
      "locale-gen",
      "update-alternatives",
      "update-grub",
      "update-initramfs",
      "ldconfig",
      "depmod",
      "modprobe",
      "insmod",
      "rmmod",
      "setcap",
      "tmux",
      "screen",
      "make",
      "pip",
      "pip3",
      "npm",
      "npx",
      "yarn",
      "pnpm",
      "cargo",
      "go",
      "ansible",
      "ansible-playbook",
      "acme.sh",
      "htpasswd",
      "ssh-copy-id",
      "ssh-add",
      "ssh-agent",
      "gpg",
      "visudo",
      "vipw",
      "vi",
      "vim",
      "nano",
      "emacs",
    ],
    what: "changes files or system state",
    risk: "config_mutation",
    flags: { readOnly: ["--version", "-V", "--help"] },
    dryRun: ["--dry-run", "--check"],
    examples: [
      ["mkdir -p /srv/app", "config_mutation"],
      ["touch /tmp/flag", "config_mutation"],
      ["modprobe wireguard", "config_mutation"],
      ["ansible-playbook site.yml --check", "read_only"],
    ],
  },
  {
    names: ["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "pigz"],
    what: "compresses or decompresses files in place",
    risk: "config_mutation",
    flags: { readOnly: ["-c", "--stdout", "-l", "--list", "-t", "--test"] },
    examples: [
      ["gzip -k big.log", "config_mutation"],
      ["gzip -dc x.gz | head", "read_only"],
      ["zstd -t backup.zst", "read_only"],
    ],
  },
  {
    names: ["certbot", "letsencrypt"],
    what: "requests or renews certificates",
    risk: "config_mutation",
    subcommands: { readOnly: ["certificates", "plugins", "show_account"], destructive: ["delete", "revoke"] },
    dryRun: ["--dry-run"],
    flags: { readOnly: ["--version", "--help"] },
    examples: [
      ["certbot certificates", "read_only"],
      ["certbot renew", "config_mutation"],
      ["certbot renew --dry-run", "read_only"],
      ["certbot delete --cert-name x", "destructive"],
    ],
  },
  {
    names: ["chmod", "chown", "chgrp"],
    what: "changes ownership or permissions",
    risk: "config_mutation",
    refine: permissionsRefine,
    examples: [
      ["chown -R www-data:www-data /var/www/app", "config_mutation"],
      ["chmod -R 777 /", "destructive"],
      ["chown -R nobody /etc", "destructive"],
      ["chmod 644 /etc/shadow", "destructive"],
    ],
  },
  {
    names: ["rm", "shred", "unlink", "truncate", "srm", "wipe"],
    what: "deletes files",
    risk: "destructive",
    examples: [
      ["rm -rf /srv", "destructive"],
      ["rm /tmp/x.log", "destructive"],
      ["truncate -s 0 /var/log/syslog", "destructive"],
      ["shred -u secret.key", "destructive"],
    ],
  },
  {
    names: [
      "mkfs",
      "mkfs.ext2",
      "mkfs.ext3",
      "mkfs.ext4",
      "mkfs.xfs",
      "mkfs.btrfs",
      "mkfs.vfat",
      "mkfs.fat",
      "mkfs.ntfs",
      "mkfs.exfat",
      "mke2fs",
      "mkswap",
      "blkdiscard",
    ],
    what: "formats a device, erasing it",
    risk: "destructive",
    examples: [
      ["mkfs.ext4 /dev/sdb1", "destructive"],
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
    names: ["fdisk", "sfdisk", "sgdisk", "gdisk", "cfdisk"],
    what: "rewrites partition tables",
    risk: "destructive",
    flags: { readOnly: ["-l", "--list", "-d", "--dump", "-p", "--print"] },
    examples: [
      ["fdisk -l", "read_only"],
      ["sfdisk -d /dev/sda", "read_only"],
      ["sgdisk -p /dev/sda", "read_only"],
      ["fdisk /dev/sdb", "destructive"],
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
    ],
  },
  {
    names: ["userdel", "groupdel", "deluser", "delgroup"],
    what: "deletes accounts",
    risk: "destructive",
    examples: [["userdel -r bob", "destructive"]],
  },
];
