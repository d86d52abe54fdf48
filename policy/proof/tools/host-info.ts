import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

/** `date` prints with `+FORMAT`; any other operand (`date 010100002020`) sets the clock. */
function dateOperands(args: readonly ProofWord[]): Verdict {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (arg.static && /^(-[uRI]*[dfr]|--(date|reference|rfc-3339))$/.test(arg.value)) {
      i++;
      continue;
    }
    if (arg.static && arg.value.startsWith("-")) continue;
    if (!arg.static || !arg.value.startsWith("+"))
      return `\`date ${arg.raw}\` sets the clock; only \`+FORMAT\` prints`;
  }
  return null;
}

/** Who and what the host is: users, logins, names, time, locale, configuration values. */
export const HOST_INFO_TOOLS: Record<string, ToolSpec> = {
  uptime: { flags: "ps", long: ["--pretty", "--since"] },
  free: {
    flags: "bkmghltvw",
    valued: "cs",
    long: ["--human", "--total", "--wide", "--mega", "--giga", "--si"],
  },
  id: { flags: "gGnruz", anyOption: true },
  whoami: {},
  who: { flags: "abdHlmpqrsTtu", maxPositionals: 0 },
  w: { flags: "hisfou" },
  users: { maxPositionals: 0 },
  groups: {},
  last: { flags: "adFiRwx", valued: "nfst", anyOption: false },
  lastb: { flags: "adFiRwx", valued: "n" },
  lastlog: { valued: "ubt" },
  uname: { flags: "asnrvmpio", long: ["--all", "--kernel-release"] },
  hostname: {
    flags: "aAdfiIsy",
    long: ["--fqdn", "--short", "--all-ip-addresses", "--ip-address", "--domain", "--long"],
    maxPositionals: 0,
  },
  hostid: {},
  arch: {},
  nproc: { long: ["--all"] },
  tty: { flags: "s" },
  locale: { flags: "ackmv" },
  printenv: { flags: "0" },
  // `getent hosts NAME` asks DNS: the name is sent away, so it must be fixed text.
  getent: {
    flags: "is",
    valued: "s",
    check: (args) =>
      args.some((a) => a.static && /^a?hosts(v[46])?$/.test(a.value)) &&
      args.some((a) => !a.static && !a.fixedText)
        ? "`getent hosts` sends the name it looks up to DNS, and a name only known at run time could carry local data away"
        : null,
  },
  date: {
    flags: "uRI",
    valued: "dfr",
    long: ["--utc", "--rfc-3339", "--iso-8601", "--rfc-email"],
    longValued: ["--date", "--reference", "--rfc-3339", "--iso-8601"],
    check: dateOperands,
  },
  // Debian's lsb_release is a Python program on older releases and a shell script on newer ones.
  lsb_release: { flags: "aidrcs", helpers: ["python3", "getopt", "cut", "tr", "sed", "grep"] },
  getconf: { flags: "a" },
  sysctl: {
    flags: "aenNbqA",
    valued: "r",
    long: ["--all", "--values", "--names"],
    check: (args) => {
      for (const arg of args)
        if (!arg.static || arg.value.includes("=")) return "sysctl with a value sets a kernel parameter";
      return null;
    },
  },
  sleep: {},
  factor: {},
  look: { flags: "bdf", valued: "t" },
  numactl: { long: ["--hardware", "--show"], flags: "Hs", maxPositionals: 0 },
};
