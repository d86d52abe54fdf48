import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { hasFlag, NET_ADMIN, NETLINK, PROCESS_INFO, unjailed } from "./grant-helpers.ts";
import { netstatOutsideResolvesNothing, ssOutsideResolvesNothing } from "./no-name-lookups.ts";

/**
 * A DNS name's text form escapes any byte (`\\013\\010` is CR LF): sent over TCP to another port
 * (`dig -p 6379 +tcp 'x\\013\\010FLUSHALL\\013\\010'`) the query carries a command line of its own.
 */
function dnsNames(args: readonly ProofWord[]): Verdict {
  const escaped = args.find((arg) => arg.value.includes("\\"));
  return escaped
    ? `\`${escaped.raw}\` escapes bytes into the query (\`\\DDD\`), which another service behind that port reads as a command; write the name plainly`
    : null;
}

/**
 * dig's `+opcode` sends an UPDATE or a NOTIFY (a secondary then transfers the zone again) rather
 * than a query; `+https`/`+http-plain` POST the query to any path of a web server. dig takes any
 * unambiguous prefix of a `+` option, so prefixes count.
 */
function digQuery(args: readonly ProofWord[]): Verdict {
  const acts = args.find((arg) => /^\+(no)?(op|http)/i.test(arg.value));
  if (acts)
    return `\`dig ${acts.raw}\` sends an update, a notify or an HTTP POST rather than a query; ask for it`;
  return dnsNames(args);
}

/**
 * A ping faster than once in 200 ms (`-i 0`: as fast as replies come, a flood from root) or with
 * packets preloaded (`-l`) is a load on the network and the host, not a look at it.
 */
function pingFloods(args: readonly ProofWord[]): Verdict {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    const match = /^-[nqv46DO]*([cwWsiItlQp])(.*)$/s.exec(arg.value);
    if (!arg.static || !match) continue;
    const [, letter, attached = ""] = match;
    const value = attached !== "" ? attached : (args[i + 1]?.value ?? "");
    if (attached === "") i++;
    if (letter === "l") return "`ping -l` preloads packets (sends them without waiting): a flood; ask for it";
    if (letter === "i" && !(Number(value) >= 0.2))
      return `\`ping -i ${value}\` sends faster than five a second (a flood); use \`-i 0.2\` or more, or ask`;
  }
  return null;
}

const IP_READ_VERBS = new Set(["show", "list", "ls", "lst", "get"]);

function ipCheck(args: readonly ProofWord[]) {
  const words = args.filter((arg) => !(arg.static && arg.value.startsWith("-")));
  // Not -c: it is ip's colour flag (`ip -c link a …` is `ip link add …`)
  const valueOptions = new Set(["-f", "-family", "-n", "-netns"]);
  const skipped = args.filter(
    (_arg, i) => i > 0 && args[i - 1]?.static && valueOptions.has(args[i - 1]?.value ?? ""),
  );
  const positional = words.filter((word) => !skipped.includes(word));
  const object = positional[0];
  if (!object) return "`ip` without an object";
  if (
    !object.static ||
    !/^(a|addr|address|l|link|r|ro|route|n|neigh|neighbor|neighbour|rule|maddr|maddress|netns|-br|monitor_no)$/.test(
      object.value,
    )
  ) {
    return `\`ip ${object.raw}\` is not an object proven read-only`;
  }
  const verb = positional[1];
  if (!verb) return null;
  if (!verb.static || !IP_READ_VERBS.has(verb.value))
    return `\`ip ${object.value} ${verb.raw}\` changes the network or runs a command`;
  if (object.value === "netns" && verb.value !== "list" && verb.value !== "ls")
    return "`ip netns` other than list";
  return null;
}

/** `bridge OBJECT [show|list]`: links, forwarding database, multicast and VLANs, read. */
function bridgeCheck(args: readonly ProofWord[]): Verdict {
  const words = args.filter((arg) => !(arg.static && arg.value.startsWith("-")));
  const [object, verb, ...rest] = words;
  if (!object?.static || !/^(link|fdb|mdb|vlan)$/.test(object.value))
    return `\`bridge ${object?.raw ?? ""}\` is not an object proven read-only`;
  if (verb && (!verb.static || !/^(show|list|lst)$/.test(verb.value)))
    return `\`bridge ${object.value} ${verb.raw}\` changes the bridge`;
  for (let i = 0; i < rest.length; i += 2) {
    if (!/^(dev|br|vlan|brport)$/.test(rest[i]?.value ?? ""))
      return `\`bridge … ${rest[i]?.raw}\` is not a filter proven read-only`;
  }
  return null;
}

/** Interfaces, sockets, routes, reachability and name lookups. */
export const NETWORK_INSPECTION_TOOLS: Record<string, ToolSpec> = {
  ip: {
    singleDashLong: true,
    long: [
      "-br",
      "-brief",
      "-j",
      "-json",
      "-s",
      "-stats",
      "-d",
      "-details",
      "-c",
      "-color",
      "-o",
      "-oneline",
      "-4",
      "-6",
      "-p",
      "-pretty",
      "-h",
      "-human",
      "-t",
    ],
    longValued: ["-f", "-family", "-n", "-netns"],
    anyOption: false,
    grants: NETLINK,
    check: ipCheck,
  },
  bridge: {
    singleDashLong: true,
    long: [
      "-s",
      "-statistics",
      "-d",
      "-details",
      "-j",
      "-json",
      "-p",
      "-pretty",
      "-c",
      "-color",
      "-o",
      "-oneline",
      "-n",
    ],
    grants: NETLINK,
    check: bridgeCheck,
  },
  ethtool: {
    // Questions only: -s, -K, -G, -A, -C, -L, -E, -f, -p (blinks), -r, -t (takes the link down) act,
    // and -d/-e dump registers and EEPROM, some of which clear on read.
    flags: "SikgaclmTP",
    long: [
      "--statistics",
      "--driver",
      "--show-features",
      "--show-offload",
      "--show-ring",
      "--show-pause",
      "--show-coalesce",
      "--show-channels",
      "--module-info",
      "--show-time-stamping",
      "--show-permaddr",
      "--show-fec",
      "--show-eee",
      "--show-priv-flags",
      "--json",
    ],
    maxPositionals: 1,
    // Inside the jail, always: with no option (`ethtool eth0`) it also asks for the wake-on-LAN
    // settings, which need CAP_NET_ADMIN over the host's namespace (that line is reported hidden).
    // Never outside: where ethtool falls back to its ioctl (before 5.6, or no ethtool netlink), a
    // name that is no interface makes the kernel, for root, load the module of that name
    // (`ethtool dummy` creates dummy0).
    grants: NETLINK,
  },
  conntrack: {
    // -L, -C, -S list, count and show statistics; -z (zero counters), -D, -F, -U, -I, -E are not here.
    flags: "LCSn",
    valued: "psdfoqrmtu",
    long: ["--dump", "--count", "--stats"],
    longValued: [
      "--proto",
      "--src",
      "--dst",
      "--family",
      "--output",
      "--sport",
      "--dport",
      "--orig-src",
      "--orig-dst",
      "--reply-src",
      "--reply-dst",
      "--orig-port-src",
      "--orig-port-dst",
      "--state",
      "--zone",
      "--mark",
      "--status",
    ],
    maxPositionals: 1,
    grants: unjailed(NET_ADMIN, "conntrack"),
    check: (args) =>
      hasFlag(args, "LCS", ["--dump", "--count", "--stats"])
        ? null
        : "`conntrack` without -L, -C or -S changes the table",
  },
  chronyc: {
    // Not `-h HOST` (asks another host) nor `-m` (every argument a command).
    flags: "nc46",
    grants: [{ resource: "socket", service: "chrony" }],
    sub: Object.fromEntries(
      [
        "tracking",
        "sources",
        "sourcestats",
        "activity",
        "serverstats",
        "ntpdata",
        "selectdata",
        "authdata",
        "rtcdata",
        "manual",
      ].map((verb) => [verb, verb === "manual" ? { sub: { list: {} } } : { flags: "av", maxPositionals: 1 }]),
    ),
  },
  // No `-r`: it resolves names in DNS, which the jail (netlink only) cannot reach: a silent lie.
  // No `-E` (watches socket events for ever) nor `-N` (enters another network namespace): with
  // `-p` ss runs outside the jail.
  ss: {
    flags: "tulnpaseimoxw46H0OZzb",
    valued: "fA",
    long: [
      "--tcp",
      "--udp",
      "--listening",
      "--numeric",
      "--processes",
      "--all",
      "--summary",
      "--extended",
      "--info",
      "--no-header",
    ],
    longValued: ["--family", "--query"],
    grants: (args) => (hasFlag(args, "p", ["--processes"]) ? unjailed(PROCESS_INFO, "ss") : NETLINK),
    check: (args) => (hasFlag(args, "p", ["--processes"]) ? ssOutsideResolvesNothing(args) : null),
  },
  // Not -c (prints again every second until stopped).
  netstat: {
    flags: "tulnpaersgiCFvWNoexM",
    check: netstatOutsideResolvesNothing,
    grants: (args) => (hasFlag(args, "p", ["--program"]) ? unjailed(PROCESS_INFO, "netstat") : NETLINK),
  },
  ping: {
    network: true,
    flags: "nqv46DO",
    valued: "cwWsiItlQp",
    anyOption: true,
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z0-9]*[cwW]/.test(a.value))
        ? pingFloods(args)
        : "ping without -c or -w runs until stopped",
  },
  traceroute: { network: true, flags: "nIT46UFeA", valued: "mwqpfzs" },
  sshd: {
    // -T prints the effective configuration and -t checks it; -E would write a log, -D runs the server.
    flags: "Tt46q",
    valued: "Cf",
    check: (args) => (hasFlag(args, "Tt") ? null : "`sshd` without -T or -t starts the server"),
  },
  tracepath: { network: true, flags: "n46b", valued: "lmp" },
  mtr: {
    network: true,
    flags: "rnbwz46",
    valued: "ci",
    long: ["--report", "--no-dns", "--report-wide"],
    longValued: ["--report-cycles"],
  },
  // Not `dig -f FILE`: it sends every line of the file as a query.
  // Only DNS's own ports: over TCP a label of length 10 is a line break before its own text, a line
  // of the name's choosing to whatever else listens on the port (`dig +tcp -p 11211 'flush_all .aaaaaaaaaa'`).
  dig: {
    network: true,
    flags: "46xtuv",
    valued: "bckpqtxy",
    anyOption: false,
    values: { "-p": (port) => port === "53" || port === "853" },
    check: digQuery,
  },
  host: { network: true, flags: "aCdlrTUv46", valued: "cNRtW", check: dnsNames },
  // With no name, or `-`, nslookup reads queries from its standard input.
  nslookup: { network: true, sendsStdin: true, check: dnsNames },
  // Requests only: -U and -A announce (they rewrite every neighbour's cache), -s sends as another
  // address, -P sends replies.
  arping: {
    network: true,
    flags: "bDfq0",
    valued: "cIw",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*c/.test(a.value))
        ? null
        : "arping without -c runs until stopped",
  },
  nc: {
    network: true,
    // Not -u: a UDP "scan" sends a datagram to the port.
    flags: "zvn46",
    valued: "w",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z0-9]*z/.test(a.value))
        ? null
        : "nc without -z sends its input to the port",
  },
  // Debian's whois reads `-h host:port` as a port: a query line sent to any TCP service (Redis, memcached).
  whois: { network: true, anyOption: false, valued: "h", values: { "-h": (host) => !host.includes(":") } },
};
