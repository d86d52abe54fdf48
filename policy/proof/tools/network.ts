import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { toNowhere } from "../tool-spec.ts";

/** Network inspection and HTTP reads (GET/HEAD to http/https only: other schemes can write to services). */

const URL_OK = (word: ProofWord) =>
  word.static &&
  (/^https?:\/\/[^\s]+$/.test(word.value) || (!word.value.includes("://") && !word.value.startsWith("-")));

function urlsOnly(skipValues: readonly string[]) {
  return (args: readonly ProofWord[]) => {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as ProofWord;
      if (arg.static && arg.value.startsWith("-")) {
        if (skipValues.includes(arg.value)) i++;
        continue;
      }
      if (!URL_OK(arg)) return `\`${arg.raw}\` is not a fixed http(s) address`;
    }
    return null;
  };
}

const CURL_VALUED = ["-m", "-w", "-o", "-A", "-e", "-u", "-X", "-r"];
const IP_READ_VERBS = new Set(["show", "list", "ls", "lst", "get"]);

function ipCheck(args: readonly ProofWord[]) {
  const words = args.filter((arg) => !(arg.static && arg.value.startsWith("-")));
  const valueOptions = new Set(["-f", "-family", "-n", "-netns", "-c"]);
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

export const NETWORK_TOOLS: Record<string, ToolSpec> = {
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
    check: ipCheck,
  },
  ss: {
    flags: "tulnpaseimoxwr46H0OEZzb",
    valued: "fAN",
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
  },
  netstat: { flags: "tulnpaerscgiCFvWNoexM", anyOption: true },
  ping: {
    network: true,
    flags: "nqv46DO",
    valued: "cwWsiItlQp",
    anyOption: true,
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z0-9]*[cwW]/.test(a.value))
        ? null
        : "ping without -c or -w runs until stopped",
  },
  traceroute: { network: true, flags: "nIT46UFeA", valued: "mwqpfzs" },
  tracepath: { network: true, flags: "n46b", valued: "lmp" },
  mtr: {
    network: true,
    flags: "rnbwz46",
    valued: "ci",
    long: ["--report", "--no-dns", "--report-wide"],
    longValued: ["--report-cycles"],
  },
  // Not `dig -f FILE`: it sends every line of the file as a query.
  dig: { network: true, flags: "46xtuv", valued: "bckpqtxy", anyOption: false },
  host: { network: true, flags: "aCdlrTUv46", valued: "cNRtW" },
  // With no name, or `-`, nslookup reads queries from its standard input.
  nslookup: { network: true, sendsStdin: true },
  arping: {
    network: true,
    flags: "AbDfqU0",
    valued: "cIsw",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*c/.test(a.value))
        ? null
        : "arping without -c runs until stopped",
  },
  nc: {
    network: true,
    flags: "zvnu46",
    valued: "w",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z0-9]*z/.test(a.value))
        ? null
        : "nc without -z sends its input to the port",
  },
  curl: {
    network: true,
    flags: "sSfLIikv46#",
    valued: "mwoAeuXrx",
    long: [
      "--silent",
      "--show-error",
      "--fail",
      "--location",
      "--head",
      "--include",
      "--insecure",
      "--verbose",
      "--compressed",
      "--http1.1",
      "--http2",
      "--ipv4",
      "--ipv6",
      "--fail-with-body",
      "--no-progress-meter",
    ],
    longValued: [
      "--max-time",
      "--connect-timeout",
      "--write-out",
      "--output",
      "--user-agent",
      "--referer",
      "--user",
      "--request",
      "--retry",
      "--retry-delay",
      "--max-redirs",
      "--resolve",
      "--cacert",
      "--range",
      "--noproxy",
    ],
    values: {
      "-o": toNowhere,
      "--output": toNowhere,
      "-X": (v) => v === "GET" || v === "HEAD",
      "--request": (v) => v === "GET" || v === "HEAD",
      "-w": (v) => !/%(output|header)|@/.test(v),
      "--write-out": (v) => !/%(output|header)|@/.test(v),
      "-x": () => false,
    },
    check: urlsOnly([
      ...CURL_VALUED,
      "--max-time",
      "--connect-timeout",
      "--write-out",
      "--output",
      "--user-agent",
      "--referer",
      "--user",
      "--request",
      "--retry",
      "--retry-delay",
      "--max-redirs",
      "--resolve",
      "--cacert",
      "--range",
      "--noproxy",
    ]),
  },
  wget: {
    network: true,
    flags: "qSv46",
    valued: "OTt",
    long: ["--quiet", "--spider", "--server-response", "--no-check-certificate", "--no-hsts", "--no-verbose"],
    longValued: ["--timeout", "--tries", "--output-document"],
    values: { "-O": toNowhere, "--output-document": toNowhere },
    check: (args) => {
      const stdout = args.some(
        (a) =>
          a.static &&
          (/^-[qSv46]*O-?$/.test(a.value) ||
            a.value === "--spider" ||
            a.value.startsWith("--output-document")),
      );
      if (!stdout) return "wget without -O - or --spider saves a file";
      const https = args.some((a) => a.static && a.value.startsWith("https://"));
      if (https && !args.some((a) => a.value === "--no-hsts"))
        return "wget over https records HSTS state in ~/.wget-hsts; add --no-hsts";
      return urlsOnly(["-O", "-T", "-t", "--timeout", "--tries"])(args);
    },
  },
  iptables: {
    flags: "LSnvx",
    valued: "t",
    long: ["--list", "--list-rules", "--numeric", "--verbose", "--line-numbers", "--exact"],
    longValued: ["--table"],
    check: (args) =>
      args.some(
        (a) =>
          (a.static && /^-[a-zA-Z]*[LS]/.test(a.value)) || a.value === "--list" || a.value === "--list-rules",
      )
        ? null
        : "iptables without -L/-S changes rules",
  },
  ip6tables: {
    flags: "LSnvx",
    valued: "t",
    long: ["--list", "--line-numbers"],
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*[LS]/.test(a.value))
        ? null
        : "ip6tables without -L/-S changes rules",
  },
  "iptables-save": { flags: "c", valued: "t" },
  nft: { flags: "ajnstc", argvScript: true, sub: { list: { anyOption: true } } },
  ufw: { sub: { status: { maxPositionals: 1 } } },
  wg: { bareOk: true, sub: { show: {} } },
  tailscale: {
    sub: {
      status: { long: ["--json", "--peers", "--self"] },
      ip: { flags: "46" },
      version: {},
      netcheck: {},
    },
  },
  "firewall-cmd": {
    long: [
      "--state",
      "--list-all",
      "--list-services",
      "--list-ports",
      "--get-active-zones",
      "--get-default-zone",
      "--list-all-zones",
      "--permanent",
    ],
    longValued: ["--zone"],
  },
  openssl: {
    sub: {
      x509: {
        singleDashLong: true,
        long: [
          "-noout",
          "-enddate",
          "-startdate",
          "-dates",
          "-subject",
          "-issuer",
          "-text",
          "-fingerprint",
          "-serial",
          "-checkend",
          "-ext",
          "-purpose",
          "-sha256",
          "-email",
          "-modulus",
        ],
        longValued: ["-in", "-inform", "-nameopt", "-checkend", "-ext"],
      },
      s_client: {
        network: true,
        sendsStdin: true,
        singleDashLong: true,
        long: ["-showcerts", "-brief", "-quiet", "-tls1_2", "-tls1_3", "-ign_eof"],
        longValued: ["-connect", "-servername", "-starttls", "-CAfile", "-verify_return_error_no"],
      },
      version: { flags: "a" },
      verify: { singleDashLong: true, longValued: ["-CAfile", "-untrusted"] },
    },
  },
  "redis-cli": {
    network: true,
    valued: "hpanu",
    long: [
      "--raw",
      "--no-auth-warning",
      "--csv",
      "--tls",
      "--bigkeys",
      "--memkeys",
      "--stat",
      "--latency",
      "--scan",
    ],
    longValued: ["--user", "--pass", "--pattern"],
    bareOk: false,
    sub: {},
  },
};

const REDIS_READ = [
  "info",
  "ping",
  "dbsize",
  "get",
  "mget",
  "keys",
  "scan",
  "type",
  "ttl",
  "pttl",
  "exists",
  "hgetall",
  "hget",
  "hkeys",
  "hlen",
  "lrange",
  "llen",
  "smembers",
  "scard",
  "zrange",
  "zcard",
  "strlen",
  "role",
  "time",
  "lastsave",
];
const redis = NETWORK_TOOLS["redis-cli"] as ToolSpec & { sub: Record<string, ToolSpec> };
for (const verb of REDIS_READ) {
  redis.sub[verb] = { anyOption: true };
  redis.sub[verb.toUpperCase()] = { anyOption: true };
}
for (const [verb, second] of [
  ["client", /^(list|info|getname|id)$/i],
  ["config", /^get$/i],
  ["memory", /^(usage|stats|doctor)$/i],
  ["slowlog", /^(get|len)$/i],
  ["cluster", /^(info|nodes)$/i],
] as const) {
  const spec: ToolSpec = {
    custom: (args) =>
      args[0]?.static && second.test(args[0].value)
        ? null
        : `\`redis-cli ${verb} ${args[0]?.raw ?? ""}\` is not proven read-only`,
  };
  redis.sub[verb] = spec;
  redis.sub[verb.toUpperCase()] = spec;
}
