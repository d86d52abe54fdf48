import type { CommandView, RuleContext } from "../command-view.ts";
import { finding, hasOption, optionValue, positionals } from "../command-view.ts";
import type { Finding } from "../risk.ts";
import { quoteSegment } from "../risk.ts";
import type { CommandRule } from "./rule.ts";

/** Network configuration and firewalls. */

const IP_OBJECT_VERBS_READ = new Set(["show", "list", "ls", "lst", "sh", "get", "help", "monitor", "save"]);
const IP_VERBS_WRITE = new Set([
  "add",
  "del",
  "delete",
  "change",
  "replace",
  "set",
  "flush",
  "append",
  "prepend",
  "update",
  "attach",
  "detach",
  "restore",
]);

function ipRefine(view: CommandView, ctx: RuleContext): Finding[] {
  const q = quoteSegment(view.text);
  const pos = positionals(view.args, ["-n", "-netns", "-f", "-family", "-b", "-batch", "-rc", "-rcvbuf"]);
  if (pos[0]?.value === "netns" && pos[1]?.value === "exec") {
    const inner = pos.slice(3);
    return inner.length > 0 ? ctx.classifyArgv(inner, true) : [];
  }
  if (hasOption(view.args, ["-b", "-batch", "-force"], false)) {
    return [finding("config_mutation", `${q} runs a batch file of ip commands (config_mutation)`)];
  }
  const verb = pos[1];
  if (!pos[0] || !verb) return [finding("read_only", `${q} only shows network state (read-only)`)];
  if (IP_OBJECT_VERBS_READ.has(verb.value))
    return [finding("read_only", `${q} only shows network state (read-only)`)];
  if (IP_VERBS_WRITE.has(verb.value))
    return [
      finding("config_mutation", `${q}: \`${verb.value}\` changes network configuration (config_mutation)`),
    ];
  // `ip addr dev eth0`, `ip route 10.0.0.0/8`: an object followed by a selector shows state.
  if (
    ["dev", "to", "from", "table", "scope", "label", "up", "type", "vrf", "master"].includes(verb.value) ||
    /^[0-9./:a-f]+$/.test(verb.value)
  ) {
    return [finding("read_only", `${q} only shows network state (read-only)`)];
  }
  return [
    finding(
      "config_mutation",
      `${q}: \`${verb.value}\` is not an ip verb oikos knows as read-only (config_mutation)`,
    ),
  ];
}

function iptablesRefine(view: CommandView): Finding[] {
  const q = quoteSegment(view.text);
  const flush = view.args.find(
    (arg) => /^(-F|--flush|-X|--delete-chain)$/.test(arg.value) || /^-[a-zA-Z]*F[a-zA-Z]*$/.test(arg.value),
  );
  if (flush)
    return [finding("destructive", `${q}: \`${flush.value}\` throws away firewall rules (destructive)`)];
  const policyDrop = optionValue(view.args, ["-P", "--policy"]);
  if (policyDrop && view.args.some((arg) => arg.value === "DROP" || arg.value === "REJECT")) {
    return [
      finding("destructive", `${q} sets a default DROP policy, which can cut off access (destructive)`),
    ];
  }
  return [];
}

export const NETWORK_RULES: CommandRule[] = [
  {
    names: ["ip"],
    what: "shows network state",
    risk: "read_only",
    wrapper: true,
    refine: ipRefine,
    examples: [
      ["ip a", "read_only"],
      ["ip -br addr show", "read_only"],
      ["ip route get 1.1.1.1", "read_only"],
      ["ip -4 addr show dev eth0", "read_only"],
      ["ip link set eth0 down", "config_mutation"],
      ["ip addr add 10.0.0.2/24 dev eth0", "config_mutation"],
      ["ip netns exec blue ip a", "read_only"],
    ],
  },
  {
    names: ["iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ebtables", "arptables"],
    what: "changes firewall rules",
    risk: "config_mutation",
    bundles: true,
    flags: {
      readOnly: ["-L", "--list", "-S", "--list-rules", "-C", "--check"],
      mutating: [
        "-A",
        "--append",
        "-I",
        "--insert",
        "-D",
        "--delete",
        "-R",
        "--replace",
        "-N",
        "--new-chain",
        "-Z",
        "--zero",
        "-E",
        "--rename-chain",
      ],
    },
    refine: iptablesRefine,
    examples: [
      ["iptables -L -n -v", "read_only"],
      ["iptables -nvL INPUT", "read_only"],
      ["iptables -S", "read_only"],
      ["iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "config_mutation"],
      ["iptables -F", "destructive"],
      ["iptables -P INPUT DROP", "destructive"],
    ],
  },
  {
    names: ["iptables-save", "ip6tables-save"],
    what: "prints firewall rules",
    risk: "read_only",
    flags: { mutating: ["-f", "--file"] },
    examples: [["iptables-save", "read_only"]],
  },
  {
    names: ["iptables-restore", "ip6tables-restore"],
    what: "replaces firewall rules",
    risk: "config_mutation",
    dryRun: ["-t", "--test"],
    examples: [["iptables-restore < rules.v4", "config_mutation"]],
  },
  {
    names: ["nft"],
    what: "changes nftables rules",
    risk: "config_mutation",
    valueOptions: ["-f", "--file", "-I", "--includepath"],
    dryRun: ["-c", "--check"],
    subcommands: {
      readOnly: [
        "list ruleset",
        "list tables",
        "list table",
        "list chain",
        "list chains",
        "list set",
        "list sets",
        "list map",
        "list maps",
        "list counters",
        "list flowtables",
        "monitor",
        "describe",
      ],
      mutating: ["add", "insert", "replace", "create", "rename", "reset"],
      destructive: ["delete", "flush", "flush ruleset", "destroy"],
    },
    examples: [
      ["nft list ruleset", "read_only"],
      ["nft -a list chain inet filter input", "read_only"],
      ["nft add rule inet filter input tcp dport 22 accept", "config_mutation"],
      ["nft flush ruleset", "destructive"],
      ["nft -f /etc/nftables.conf", "config_mutation"],
    ],
  },
  {
    names: ["ufw"],
    what: "changes firewall rules",
    risk: "config_mutation",
    subcommands: {
      readOnly: ["status", "show", "version", "app list", "app info"],
      destructive: ["reset", "disable"],
    },
    examples: [
      ["ufw status verbose", "read_only"],
      ["ufw allow 22/tcp", "config_mutation"],
      ["ufw reset", "destructive"],
    ],
  },
  {
    names: [
      "firewall-cmd",
      "fail2ban-client",
      "wg",
      "tailscale",
      "zerotier-cli",
      "nmcli",
      "brctl",
      "bridge",
      "tc",
      "route",
      "ifconfig",
      "iwconfig",
      "arp",
    ],
    what: "changes network configuration",
    risk: "config_mutation",
    whenBare: "read_only",
    subcommands: {
      readOnly: [
        "status",
        "show",
        "list",
        "info",
        "ip",
        "netcheck",
        "version",
        "ping",
        "general",
        "device status",
        "device show",
        "connection show",
        "con show",
        "dev status",
        "link show",
        "fdb show",
        "vlan show",
        "qdisc show",
        "class show",
        "filter show",
        "banned",
        "get",
        "peers",
        "listnetworks",
      ],
    },
    flags: {
      readOnly: [
        "--state",
        "--list-all",
        "--list-all-zones",
        "--get-active-zones",
        "--list-services",
        "--list-ports",
        "-S",
        "-i",
        "-k",
        "-a",
        "-n",
        "-e",
      ],
      // `tc -batch file` runs every command in the file; its bundle letters are not `-a`/`-e`.
      mutating: ["-batch", "--batch", "-force"],
    },
    examples: [
      ["wg show", "read_only"],
      ["firewall-cmd --list-all", "read_only"],
      ["firewall-cmd --reload", "config_mutation"],
      ["firewall-cmd --panic-on", "config_mutation"],
      ["tc -batch /tmp/tc.txt", "config_mutation"],
      ["tailscale status", "read_only"],
      ["fail2ban-client status sshd", "read_only"],
      ["fail2ban-client set sshd unbanip 1.2.3.4", "config_mutation"],
      ["nmcli con show", "read_only"],
    ],
  },
  {
    names: ["wg-quick", "ifup", "ifdown", "ifreload", "dhclient", "netplan"],
    what: "brings interfaces up or down",
    risk: "config_mutation",
    examples: [
      ["wg-quick up wg0", "config_mutation"],
      ["ifreload -a", "config_mutation"],
    ],
  },
];
