import type { JailGrant } from "../../jail-grant.ts";
import type { ToolSpec } from "../tool-spec.ts";

const SYSTEMD: readonly JailGrant[] = [{ resource: "socket", service: "systemd" }];

const isLineCount = (word: string) => /^[+-]?\d+$/.test(word);
const isBootId = (word: string) => /^([+-]?\d+|[0-9a-fA-F]{32}([+-]\d+)?|all)$/.test(word);
/** A service's name: without init.d, `service` runs /etc/init.d/NAME, so no `/` and no option. */
const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9@._:-]*$/;
const DBUS: readonly JailGrant[] = [{ resource: "socket", service: "dbus" }];

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

/** systemd and the service manager's views: units, journal, clocks, sessions, schedules. */
export const SYSTEMD_TOOLS: Record<string, ToolSpec> = {
  systemctl: {
    ...SYSTEMCTL_READ,
    grants: SYSTEMD,
    bareOk: true,
    sub: Object.fromEntries(readVerbs.map((verb) => [verb, SYSTEMCTL_READ])),
  },
  journalctl: {
    flags: "abefklmqrxN0123456789",
    // Not -I: systemd 257 reads it as --invocation=0, with no value.
    valued: "unpotgSUDMDF",
    // journalctl takes the next word as -n's or --boot's value only when it is a count or a boot id;
    // otherwise it is an option of its own (`-n --vacuum-time=1s`).
    optionalValue: {
      "-n": isLineCount,
      "--lines": isLineCount,
      "--boot": isBootId,
    },
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
    grants: DBUS,
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
    grants: DBUS,
    long: ["--static", "--transient", "--pretty", "--no-pager", "--json"],
    bareOk: true,
    sub: { status: {} },
  },
  loginctl: {
    grants: DBUS,
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
    grants: SYSTEMD,
    long: ["--no-pager"],
    bareOk: true,
    // Not `verify`: it builds a scratch tree under /tmp and loads the units it names.
    sub: { time: {}, blame: {}, "critical-chain": {} },
  },
  // The tree is read from cgroup.procs, which shows only the reader's PID namespace: jailed it
  // prints "-.slice" and no process at all (exit 0). It needs the machine's processes.
  "systemd-cgls": { flags: "alk", long: ["--no-pager"], grants: [{ resource: "process_info" }] },
  "systemd-detect-virt": { flags: "cvrq" },
  "virt-what": {},
  crontab: {
    flags: "l",
    valued: "u",
    check: (args) =>
      args.some((a) => a.static && a.value === "-l")
        ? null
        : "crontab without -l installs or edits a crontab",
  },
  service: {
    grants: SYSTEMD,
    helpers: ["basename", "systemctl", "env"],
    custom: (args) =>
      args.length === 2 &&
      args[0]?.static &&
      SERVICE_NAME.test(args[0].value) &&
      args[1]?.static &&
      args[1].value === "status"
        ? null
        : "`service` other than `service NAME status` (a plain name: on a host without systemd it runs /etc/init.d/NAME) starts, stops, reloads or runs another program",
  },
};
