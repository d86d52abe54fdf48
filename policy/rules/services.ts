import type { CommandView } from "../command-view.ts";
import { finding, positionals } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";
import { matchSubcommand } from "./rule.ts";

/** systemd units, the journal, service control and server config checks. */

const REMOTE_ACCESS_UNITS =
  /^(ssh|sshd|networking|network|systemd-networkd|NetworkManager|wg-quick@.*|tailscaled|pve-cluster|corosync)(\.service|\.socket)?$/;

function systemctlRefine(view: CommandView): Finding[] {
  const key = matchSubcommand(systemctlRule, view);
  if (!key || !["stop", "disable", "mask", "kill", "isolate"].includes(key)) return [];
  const units = positionals(view.args, [
    "-s",
    "--signal",
    "-H",
    "--host",
    "-M",
    "--machine",
    "-t",
    "--type",
  ]).slice(1);
  const unit = units.find((u) => REMOTE_ACCESS_UNITS.test(u.value));
  if (!unit) return [];
  return [
    finding(
      "destructive",
      `${quoteSegment(view.text)} stops \`${unit.value}\`, cutting off remote access to the machine (destructive)`,
    ),
  ];
}

const systemctlRule: CommandRule = {
  names: ["systemctl"],
  what: "lists units",
  risk: "config_mutation",
  whenBare: "read_only",
  bareFlags: [
    ...["--failed", "--all", "-a", "--type", "-t", "--state", "--user", "--system", "--no-pager"],
    ...["--no-legend", "--plain", "--full", "-l", "--output", "-o", "--quiet", "-q", "--recursive", "-r"],
  ],
  valueOptions: [
    "-t",
    "--type",
    "--state",
    "-p",
    "--property",
    "-H",
    "--host",
    "-M",
    "--machine",
    "-n",
    "--lines",
    "-o",
    "--output",
    "-s",
    "--signal",
  ],
  subcommands: {
    readOnly: [
      "status",
      "show",
      "cat",
      "list-units",
      "list-unit-files",
      "list-timers",
      "list-sockets",
      "list-dependencies",
      "list-jobs",
      "list-machines",
      "list-automounts",
      "list-paths",
      "is-active",
      "is-enabled",
      "is-failed",
      "is-system-running",
      "get-default",
      "show-environment",
      "help",
      "--version",
    ],
    mutating: [
      "start",
      "stop",
      "restart",
      "reload",
      "try-restart",
      "reload-or-restart",
      "try-reload-or-restart",
      "condrestart",
      "enable",
      "disable",
      "reenable",
      "mask",
      "unmask",
      "daemon-reload",
      "daemon-reexec",
      "set-property",
      "edit",
      "kill",
      "reset-failed",
      "set-default",
      "link",
      "preset",
      "preset-all",
      "revert",
      "set-environment",
      "unset-environment",
      "import-environment",
      "freeze",
      "thaw",
      "clean",
      "bind",
      "mount-image",
    ],
    destructive: [
      "reboot",
      "poweroff",
      "halt",
      "kexec",
      "emergency",
      "rescue",
      "isolate",
      "soft-reboot",
      "hibernate",
      "suspend",
      "hybrid-sleep",
      "default",
    ],
  },
  refine: systemctlRefine,
  examples: [
    ["systemctl status nginx", "read_only"],
    ["systemctl --no-pager list-timers", "read_only"],
    ["systemctl is-active docker", "read_only"],
    ["systemctl restart nginx", "config_mutation"],
    ["systemctl disable --now cups", "config_mutation"],
    ["systemctl stop sshd", "destructive"],
    ["systemctl reboot", "destructive"],
    ["systemctl", "read_only"],
  ],
};

export const SERVICE_RULES: CommandRule[] = [
  systemctlRule,
  {
    names: ["service"],
    what: "controls a service",
    risk: "read_only",
    wrapper: true,
    refine: (view) => {
      const action = view.args[1]?.value;
      if (action === "status" || view.args[0]?.value === "--status-all") {
        return [finding("read_only", `${quoteSegment(view.text)} only reports status (read-only)`)];
      }
      const unit = view.args[0]?.value ?? "";
      if ((action === "stop" || action === "force-stop") && REMOTE_ACCESS_UNITS.test(unit)) {
        return [
          finding(
            "destructive",
            `${quoteSegment(view.text)} stops \`${unit}\`, cutting off remote access to the machine (destructive)`,
          ),
        ];
      }
      return [
        finding(
          "config_mutation",
          `${quoteSegment(view.text)} starts, stops or reloads a service (config_mutation)`,
        ),
      ];
    },
    examples: [
      ["service nginx status", "read_only"],
      ["service nginx restart", "config_mutation"],
      ["service ssh stop", "destructive"],
    ],
  },
  {
    names: ["journalctl"],
    what: "reads the journal",
    risk: "read_only",
    flags: {
      mutating: [
        "--vacuum-size",
        "--vacuum-time",
        "--vacuum-files",
        "--rotate",
        "--flush",
        "--relinquish-var",
        "--smart-relinquish-var",
        "--setup-keys",
        "--update-catalog",
        "--sync",
      ],
    },
    examples: [
      ["journalctl -u nginx -n 200 --no-pager", "read_only"],
      ["journalctl -b -p err", "read_only"],
      ["journalctl --vacuum-time=7d", "config_mutation"],
    ],
  },
  {
    names: [
      "timedatectl",
      "hostnamectl",
      "localectl",
      "loginctl",
      "networkctl",
      "resolvectl",
      "machinectl",
      "busctl",
      "coredumpctl",
      "bootctl",
    ],
    what: "reports or changes system settings",
    risk: "config_mutation",
    whenBare: "read_only",
    subcommands: {
      readOnly: [
        "status",
        "show",
        "list",
        "list-sessions",
        "list-users",
        "list-seats",
        "show-session",
        "show-user",
        "query",
        "statistics",
        "dns",
        "domain",
        "timesync-status",
        "show-timesync",
        "list-timezones",
        "lldp",
        "info",
        "dump",
        "tree",
        "introspect",
        "list-keymaps",
        "list-locales",
        "hostname",
      ],
    },
    examples: [
      ["timedatectl", "read_only"],
      ["hostnamectl set-hostname pve2", "config_mutation"],
      ["resolvectl status", "read_only"],
    ],
  },
  {
    names: [
      "nginx",
      "apachectl",
      "apache2ctl",
      "haproxy",
      "caddy",
      "named-checkconf",
      "sshd",
      "postfix",
      "varnishd",
    ],
    what: "controls a server",
    risk: "config_mutation",
    flags: { readOnly: ["-t", "-T", "-v", "-V"] },
    subcommands: { readOnly: ["configtest", "-t", "validate", "version", "status", "check"] },
    examples: [
      ["nginx -t", "read_only"],
      ["nginx -s reload", "config_mutation"],
      ["apachectl configtest", "read_only"],
      ["caddy validate --config /etc/caddy/Caddyfile", "read_only"],
    ],
  },
];
