import type { Arg, CommandView, RuleContext } from "../command-view.ts";
import { finding, hasOption, optionValue, positionals } from "../command-view.ts";
import { isCriticalWriteTarget, isSystemFile, isTopLevelTree } from "../paths.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Tools that write, copy, move, compress or delete files. */

function lastPositional(view: CommandView, valueOptions: readonly string[] = []): Arg | undefined {
  const pos = positionals(view.args, valueOptions);
  return pos.length >= 2 ? pos[pos.length - 1] : undefined;
}

/** Files under these trees are read by services; moving one away breaks what reads it. */
const SYSTEM_TREE = /^\/(etc|boot|usr|lib|lib64|bin|sbin|var\/lib)\//;

function copyRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const target =
    optionValue(view.args, ["-t", "--target-directory"]) ?? lastPositional(view, ["-t", "-S", "--suffix"]);
  const findings: Finding[] = [];
  if (target) findings.push(ctx.writeTo(target, quoteSegment(view.text)));
  if (view.name === "mv") {
    for (const source of positionals(view.args).slice(0, -1)) {
      if (
        source.dynamic === "none" &&
        (isCriticalWriteTarget(source.value) || SYSTEM_TREE.test(source.value))
      ) {
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
  const appends = hasOption(view.args, ["-a", "--append"]) !== undefined;
  return positionals(view.args).map((file) => ctx.writeTo(file, quoteSegment(view.text), !appends));
}

function sortRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const output = optionValue(view.args, ["-o", "--output"]);
  return output ? [ctx.writeTo(output, quoteSegment(view.text), true)] : [];
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
export const FILE_RULES: CommandRule[] = [
  {
    names: ["sort"],
    what: "sorts lines",
    risk: "read_only",
    refine: sortRefine,
    examples: [
      ["sort -u list.txt", "read_only"],
      ["sort -o /etc/hosts hosts.new", "destructive"],
      ["sort -o sorted.txt a.txt", "config_mutation"],
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
    what: "changes a crontab",
    risk: "config_mutation",
    flags: { readOnly: ["-l"], destructive: ["-r"] },
    // `crontab FILE` and `… | crontab -` replace the whole crontab: every entry not in the new text is gone.
    refine: (view) =>
      positionals(view.args, ["-u"]).length > 0
        ? [finding("destructive", `${quoteSegment(view.text)} replaces the whole crontab (destructive)`)]
        : [],
    examples: [
      ["crontab -l", "read_only"],
      ["crontab -r", "destructive"],
      ["crontab new.cron", "destructive"],
      ["echo '* * * * * x' | crontab -", "destructive"],
      ["crontab -e", "config_mutation"],
    ],
  },
  {
    names: ["sysctl"],
    what: "reads kernel parameters",
    risk: "read_only",
    flags: { mutating: ["-w", "--write", "-p", "--load", "--system", "-f"] },
    refine: (view) =>
      view.args.some((arg) => arg.value.includes("=") && !arg.value.startsWith("-"))
        ? [finding("config_mutation", `${quoteSegment(view.text)} sets a kernel parameter (config_mutation)`)]
        : [],
    examples: [
      ["sysctl -a", "read_only"],
      ["sysctl net.ipv4.ip_forward", "read_only"],
      ["sysctl -w net.ipv4.ip_forward=1", "config_mutation"],
      ["sysctl vm.swappiness=10", "config_mutation"],
      ["sysctl -f /etc/sysctl.d/99-x.conf", "config_mutation"],
      ["sysctl --load=/etc/sysctl.d/99-x.conf", "config_mutation"],
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
      "groupadd",
      "groupmod",
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
];
