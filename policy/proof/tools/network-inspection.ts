import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

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
  whois: { network: true, anyOption: false, valued: "h" },
};
