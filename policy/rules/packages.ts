import { finding } from "../command-view.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Package managers: queries are read-only, installs and removals change state, purges destroy config. */

export const PACKAGE_RULES: CommandRule[] = [
  {
    names: ["apt", "apt-get", "aptitude"],
    what: "manages packages",
    risk: "config_mutation",
    valueOptions: ["-o", "-t", "--target-release", "-c"],
    dryRun: ["-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act"],
    flags: { destructive: ["--purge", "--allow-remove-essential", "--force-yes"] },
    subcommands: {
      readOnly: [
        "list",
        "search",
        "show",
        "showsrc",
        "policy",
        "depends",
        "rdepends",
        "changelog",
        "help",
        "moo",
        "check",
      ],
      mutating: [
        "update",
        "install",
        "upgrade",
        "full-upgrade",
        "dist-upgrade",
        "reinstall",
        "remove",
        "autoremove",
        "autoclean",
        "clean",
        "build-dep",
        "source",
        "download",
        "satisfy",
        "edit-sources",
        "mark",
        "hold",
        "unhold",
        "modernize-sources",
      ],
      destructive: ["purge", "autopurge"],
    },
    examples: [
      ["apt list --upgradable", "read_only"],
      ["apt-get update", "config_mutation"],
      ["apt-get install -y nginx", "config_mutation"],
      ["apt-get -s upgrade", "read_only"],
      ["apt purge nginx", "destructive"],
      ["apt-get autoremove --purge -y", "destructive"],
    ],
  },
  {
    names: ["apt-cache", "apt-config", "dpkg-query", "debsums", "checkrestart", "needrestart"],
    what: "queries packages",
    risk: "read_only",
    examples: [
      ["apt-cache policy nginx", "read_only"],
      ["dpkg-query -W nginx", "read_only"],
    ],
  },
  {
    names: ["apt-mark"],
    what: "marks packages",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["showhold", "showauto", "showmanual", "showinstall", "showremove", "showpurge"],
    },
    examples: [
      ["apt-mark showhold", "read_only"],
      ["apt-mark hold proxmox-ve", "config_mutation"],
    ],
  },
  {
    names: ["dpkg"],
    what: "manages packages",
    risk: "config_mutation",
    flags: {
      readOnly: [
        "-l",
        "--list",
        "-L",
        "--listfiles",
        "-s",
        "--status",
        "-S",
        "--search",
        "-p",
        "--print-avail",
        "--get-selections",
        "--print-architecture",
        "--print-foreign-architectures",
        "-c",
        "--contents",
        "-I",
        "--info",
        "--audit",
        "-C",
        "--verify",
        "-V",
        "--compare-versions",
      ],
      destructive: ["-P", "--purge"],
    },
    bundles: false,
    // Removing with --force-* takes essential packages (libc, the shell, sshd) away unasked.
    refine: (view) =>
      view.args.some((arg) => /^--force-/.test(arg.value)) &&
      view.args.some((arg) => /^(-r|--remove|-P|--purge)$/.test(arg.value))
        ? [
            finding(
              "destructive",
              `${quoteSegment(view.text)} removes packages past dpkg's own checks (destructive)`,
            ),
          ]
        : [],
    examples: [
      ["dpkg -r --force-all libc6", "destructive"],
      ["dpkg -l | grep pve", "read_only"],
      ["dpkg -i pkg.deb", "config_mutation"],
      ["dpkg -P nginx", "destructive"],
      ["dpkg --configure -a", "config_mutation"],
    ],
  },
  {
    names: ["dnf", "yum", "zypper", "pacman", "apk", "snap", "flatpak", "brew"],
    what: "manages packages",
    risk: "config_mutation",
    subcommands: {
      readOnly: [
        "list",
        "info",
        "search",
        "query",
        "repolist",
        "check-update",
        "history",
        "provides",
        "whatprovides",
        "show",
        "version",
      ],
    },
    flags: { readOnly: ["-Q", "-Ss", "-Si", "-Qi", "-Ql"] },
    examples: [
      ["dnf list installed", "read_only"],
      ["apk add curl", "config_mutation"],
      ["pacman -Q", "read_only"],
    ],
  },
];
