import type { Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";

/** Process, host and service inspection. */

const SYSTEMCTL_READ: ToolSpec = {
  flags: "alqt",
  valued: "pnto",
  long: [
    "--no-pager",
    "--full",
    "--all",
    "--failed",
    "--plain",
    "--no-legend",
    "--quiet",
    "--value",
    "--user",
    "--system",
    "--reverse",
    "--recursive",
    "--before",
    "--after",
    "--show-types",
  ],
  longValued: ["--property", "--lines", "--output", "--type", "--state"],
  anyOption: false,
};
const readVerbs = [
  "status",
  "show",
  "cat",
  "is-active",
  "is-enabled",
  "is-failed",
  "is-system-running",
  "list-units",
  "list-unit-files",
  "list-timers",
  "list-sockets",
  "list-dependencies",
  "list-jobs",
  "get-default",
  "list-machines",
  "show-environment",
];

export const SYSTEM_TOOLS: Record<string, ToolSpec> = {
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
  ps: {
    flags: "aAcdeEfFgGhHjlLmMNrsSTuvVwxXyZ",
    valued: "CgGOopstuU",
    long: ["--forest", "--headers", "--no-headers", "--cumulative"],
    longValued: ["--sort", "--format", "--pid", "--ppid", "--user", "--cols", "--columns", "--width"],
    anyOption: true,
  },
  pgrep: {
    flags: "lafnoxcivw",
    valued: "dgGPsStuU",
    long: ["--list-name", "--list-full", "--full", "--newest", "--oldest", "--count", "--exact"],
  },
  pidof: { flags: "sxcnz", valued: "o" },
  pstree: { flags: "aAcglnpsStuUZ", anyOption: true },
  top: {
    flags: "bcHiSs",
    valued: "dnpuUwo",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*b/.test(a.value))
        ? null
        : "top without -b is interactive (its keys kill and renice)",
  },
  lscpu: { flags: "aebcpxyJ", long: ["--json", "--extended", "--parse"] },
  lsusb: { flags: "vt", valued: "sd" },
  lspci: { flags: "mtvnkxbDPqQ", valued: "sdA" },
  lsmod: {},
  lsof: { flags: "lnPtRVwbhKQ", valued: "iupcgdaF+a", anyOption: true },
  lsns: { flags: "lnrJ", valued: "ot", anyOption: true },
  lsipc: { flags: "mqsgelnrbJ" },
  lslocks: { flags: "nrJiu", valued: "op" },
  lsirq: { flags: "nJPs" },
  lsattr: { flags: "RVadlpv" },
  getfacl: { flags: "aceEsRLPtpn", long: ["--omit-header", "--absolute-names"] },
  iostat: { flags: "cdhkmNtxyz", valued: "pj", anyOption: true },
  vmstat: { flags: "afmnsdDpStw", valued: "S", anyOption: true },
  mpstat: { flags: "uAIn", valued: "PNo", anyOption: true },
  pidstat: { flags: "dHhIlrRsStuUvw", valued: "CGpT" },
  sar: { flags: "AbBdFHhIpqrRSuvwWyz", valued: "nPefsi", values: { "-o": () => false } },
  sensors: { flags: "AujfN" },
  dmidecode: {
    flags: "qu",
    valued: "tsH",
    longValued: ["--type", "--string", "--handle"],
    long: ["--quiet"],
  },
  dmesg: {
    flags: "dehHkLlPrTtuwx",
    valued: "fl",
    long: [
      "--ctime",
      "--human",
      "--level",
      "--facility",
      "--color",
      "--time-format",
      "--follow",
      "--nopager",
      "--kernel",
      "--userspace",
    ],
    longValued: ["--level", "--facility", "--color", "--time-format"],
  },
  findmnt: {
    flags: "AbcDfklmnrsuJ",
    valued: "oOtSTFNM",
    long: ["--json", "--list", "--noheadings", "--real", "--pseudo"],
    longValued: ["--types", "--output", "--source", "--target", "--mountpoint"],
  },
  mount: { flags: "lnv", valued: "t", maxPositionals: 0 },
  systemctl: {
    ...SYSTEMCTL_READ,
    bareOk: true,
    sub: Object.fromEntries(readVerbs.map((verb) => [verb, SYSTEMCTL_READ])),
  },
  journalctl: {
    flags: "abefklmqrxN0123456789",
    valued: "unpotgSUDMIDF",
    long: [
      "--no-pager",
      "--follow",
      "--reverse",
      "--utc",
      "--all",
      "--full",
      "--quiet",
      "--catalog",
      "--no-hostname",
      "--disk-usage",
      "--list-boots",
      "--dmesg",
      "--system",
      "--user",
      "--pager-end",
      "--merge",
      "--no-full",
      "--header",
      "--verify",
      "--fields",
    ],
    longValued: [
      "--unit",
      "--lines",
      "--priority",
      "--output",
      "--boot",
      "--since",
      "--until",
      "--identifier",
      "--grep",
      "--user-unit",
      "--directory",
      "--file",
      "--facility",
      "--case-sensitive",
      "--output-fields",
      "--cursor",
      "--after-cursor",
      "--root",
      "--namespace",
    ],
  },
  timedatectl: {
    long: ["--no-pager", "--all", "--value"],
    valued: "p",
    bareOk: true,
    sub: {
      status: {},
      show: { long: ["--all", "--value"], valued: "p" },
      "list-timezones": {},
      "timesync-status": {},
      "show-timesync": {},
    },
  },
  hostnamectl: {
    long: ["--static", "--transient", "--pretty", "--no-pager", "--json"],
    bareOk: true,
    sub: { status: {} },
  },
  loginctl: {
    long: ["--no-pager", "--no-legend"],
    bareOk: true,
    sub: {
      "list-sessions": {},
      "list-users": {},
      "show-session": { anyOption: true },
      "session-status": { anyOption: true },
    },
  },
  "systemd-analyze": {
    long: ["--no-pager"],
    bareOk: true,
    // Not `verify`: it builds a scratch tree under /tmp and loads the units it names.
    sub: { time: {}, blame: {}, "critical-chain": {} },
  },
  "systemd-cgls": { flags: "alk", long: ["--no-pager"] },
  "systemd-detect-virt": { flags: "cvrq" },
  "virt-what": {},
  lsb_release: { flags: "aidrcs", helpers: ["python3"] },
  getconf: { flags: "a" },
  crontab: {
    flags: "l",
    valued: "u",
    check: (args) =>
      args.some((a) => a.static && a.value === "-l")
        ? null
        : "crontab without -l installs or edits a crontab",
  },
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
  pg_isready: {
    flags: "q",
    valued: "dhpUt",
    longValued: ["--dbname", "--host", "--port", "--username", "--timeout"],
  },
  numactl: { long: ["--hardware", "--show"], flags: "Hs", maxPositionals: 0 },
  service: {
    helpers: ["basename", "systemctl", "env"],
    custom: (args) =>
      args.length === 2 && args[0]?.static && args[1]?.static && args[1].value === "status"
        ? null
        : "`service` other than `service NAME status` starts, stops or reloads",
  },
  nginx: {
    flags: "tTqV",
    valued: "c",
    check: (args) =>
      args.some((a) => a.static && /^-[qV]*[tTV]/.test(a.value))
        ? null
        : "nginx without -t/-T/-V starts or signals the server",
  },
  apachectl: { sub: { configtest: {} } },
  "fail2ban-client": { sub: { status: {}, ping: {}, version: {} } },
  certbot: { sub: { certificates: { longValued: ["--cert-name", "--domain"] } } },
  testparm: { flags: "sv", long: ["--suppress-prompt"] },
  smbstatus: { flags: "bSpLvnjB" },
  whois: { network: true, anyOption: false, valued: "h" },
  factor: {},
  look: { flags: "bdf", valued: "t" },
  vnstat: { flags: "hdmyt", valued: "i" },
};

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
