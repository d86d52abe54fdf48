/**
 * `--help` or `--version` as the only argument: the tool prints its usage or its version and
 * exits. Proven for every tool the proof knows and for the programs below, whose handling of the
 * two was reviewed (GNU and util-linux getopt, Go and Python argument parsers, Proxmox's CLI
 * handler); never for an unknown program, which may ignore its arguments and do its work.
 */
export const HELP_ARGUMENTS: ReadonlySet<string> = new Set(["--help", "--version"]);

export const HELP_PROGRAMS: ReadonlySet<string> = new Set([
  "apt",
  "apt-get",
  "apt-cache",
  "dpkg",
  "tar",
  "gzip",
  "gunzip",
  "xz",
  "zstd",
  "bzip2",
  "cp",
  "mv",
  "rm",
  "mkdir",
  "rmdir",
  "chmod",
  "chown",
  "ln",
  "touch",
  "install",
  "wget",
  "scp",
  "sftp",
  "bash",
  "python3",
  "node",
  "perl",
  "openssl",
  "mkfs",
  "mkfs.xfs",
  "mkfs.btrfs",
  "mkswap",
  "vzdump",
  "pvenode",
  "pveam",
  "pvesr",
  "pveceph",
  "pvebanner",
  "qmrestore",
  "pct",
  "lxc-start",
  "lxc-stop",
  "lxc-attach",
  "lxc-info",
  "certbot",
  "restic",
  "borg",
  "rclone",
  "ansible",
  "terraform",
  "helm",
  "kubectl",
  "podman",
  "useradd",
  "usermod",
  "passwd",
  "iptables-restore",
  "nft",
  "wg-quick",
  "ufw",
  "tailscale",
  "zerotier-cli",
  "nmcli",
  "netplan",
  "ifup",
  "ifdown",
  "ip",
  "tc",
  "mdadm",
  "lvcreate",
  "lvextend",
  "lvremove",
  "vgcreate",
  "pvcreate",
  "cryptsetup",
  "mount",
  "umount",
  "swapon",
  "swapoff",
  "fsck",
  "e2fsck",
  "resize2fs",
  "xfs_repair",
  "growpart",
  "sgdisk",
  "gdisk",
]);

/** Programs that do their work whatever their arguments say on some systems: never by this rule. */
const POWER = new Set(["init", "telinit", "halt", "reboot", "poweroff", "shutdown"]);

/** Whether the argument list is exactly `--help` or `--version`, written out. */
export function onlyHelpOrVersion(
  args: readonly { value: string; static?: boolean; dynamic?: string }[],
): boolean {
  const [only] = args;
  if (args.length !== 1 || !only) return false;
  const fixed = only.static ?? only.dynamic === "none";
  return fixed && HELP_ARGUMENTS.has(only.value);
}

/** Whether `name --help` / `name --version` may be called read-only by name. */
export function helpIsSafe(name: string): boolean {
  return !POWER.has(name);
}
