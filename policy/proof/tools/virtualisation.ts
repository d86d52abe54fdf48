import type { ProofContext, Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { execAfterDashes } from "../wrappers.ts";
import { hasFlag, PROXMOX_IPC, unjailed } from "./grant-helpers.ts";

function proxmoxExec(what: string) {
  return (args: readonly ProofWord[], ctx: ProofContext): Verdict => execAfterDashes(args, ctx, what);
}

const QM_READ: ToolSpec = { long: ["--verbose", "--current"], longValued: ["--snapshot"], maxPositionals: 1 };
/** Proxmox's CLI formatting options (`--output-format json`, `--noborder`, `--noheader` …). */
const PVE_FORMAT: ToolSpec = {
  long: ["--noborder", "--noheader", "--human-readable", "--quiet"],
  longValued: ["--output-format"],
};
const HELP: ToolSpec = { long: ["--verbose"], maxPositionals: 2 };

/** Proxmox's tools, each run outside the jail by name (they need pmxcfs and the node's daemons). */
function proxmox(name: string, spec: ToolSpec): ToolSpec {
  return { ...spec, grants: unjailed(PROXMOX_IPC, name) };
}

const qm: ToolSpec = {
  sub: {
    list: { long: ["--full"] },
    config: QM_READ,
    status: QM_READ,
    pending: QM_READ,
    listsnapshot: QM_READ,
    showcmd: { long: ["--pretty"], longValued: ["--snapshot"], maxPositionals: 1 },
    // `qm cloudinit dump ID user|network|meta` prints the generated configuration.
    cloudinit: {
      sub: {
        dump: {
          maxPositionals: 2,
          check: (args) =>
            /^(user|network|meta)$/.test(args[1]?.value ?? "")
              ? null
              : "`qm cloudinit dump ID user|network|meta`",
        },
      },
    },
    help: HELP,
    guest: {
      sub: {
        exec: { custom: proxmoxExec("qm guest exec") },
        cmd: {
          custom: (args) => {
            const verb = args[1];
            return args.length === 2 &&
              verb?.static &&
              /^(network-get-interfaces|info|get-osinfo|get-time|get-host-name|get-fsinfo|get-users|get-vcpus|get-memory-blocks|get-timezone|ping)$/.test(
                verb.value,
              )
              ? null
              : "`qm guest cmd` is proven only for the get-* inspections";
          },
        },
      },
    },
  },
};

const pct: ToolSpec = {
  sub: {
    list: {},
    config: QM_READ,
    status: QM_READ,
    pending: QM_READ,
    listsnapshot: QM_READ,
    df: { maxPositionals: 1 },
    cpusets: {},
    help: HELP,
    exec: { custom: proxmoxExec("pct exec") },
  },
};

/**
 * `pvesh get|ls PATH`: a GET of the node's API, which changes nothing; every `--name value` is a
 * parameter of that GET (`--type vm`, `--limit 20`) or a formatting option.
 */
const PVESH_READ: ToolSpec = { custom: pveshRead };
/** pvesh's own switches, whose value is optional (`--noborder` or `--noborder 1`). */
const PVESH_SWITCHES = new Set(["--noborder", "--noheader", "--human-readable", "--quiet"]);

function pveshRead(args: readonly ProofWord[]): Verdict {
  let paths = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static) return `\`pvesh … ${arg.raw}\` is only known at run time`;
    if (!arg.value.startsWith("-")) {
      paths++;
      continue;
    }
    if (!/^--[a-z][a-z0-9-]*(=.*)?$/s.test(arg.value))
      return `\`pvesh ${arg.value}\` is not a parameter of a GET`;
    if (arg.value.includes("=")) continue;
    const next = args[i + 1];
    if (PVESH_SWITCHES.has(arg.value) && !/^(0|1|true|false|yes|no)$/.test(next?.value ?? "")) continue;
    if (!next) return `\`pvesh ${arg.value}\` needs a value`;
    i++;
  }
  return paths === 1 ? null : "`pvesh get|ls` takes one API path";
}

const PVEUM_LIST: ToolSpec = {
  ...PVE_FORMAT,
  longValued: ["--output-format", "--enabled", "--full"],
  maxPositionals: 0,
};

/** Ceph's status and maps, asked of its monitors over the network. */
const CEPH_FORMAT: ToolSpec = { valued: "f", longValued: ["--format"] };
const ceph: ToolSpec = {
  ...CEPH_FORMAT,
  flags: "s",
  long: ["--status", "--version"],
  network: true,
  bareOk: true,
  check: (args) =>
    hasFlag(args, "s", ["--status", "--version"])
      ? null
      : "`ceph` without a command opens its interactive shell",
  sub: {
    status: CEPH_FORMAT,
    health: { ...CEPH_FORMAT, sub: { detail: CEPH_FORMAT }, bareOk: true },
    df: { ...CEPH_FORMAT, sub: { detail: CEPH_FORMAT }, bareOk: true },
    versions: CEPH_FORMAT,
    version: CEPH_FORMAT,
    quorum_status: CEPH_FORMAT,
    osd: {
      sub: {
        tree: CEPH_FORMAT,
        df: { ...CEPH_FORMAT, maxPositionals: 1 },
        stat: CEPH_FORMAT,
        perf: CEPH_FORMAT,
        pool: { sub: { ls: { ...CEPH_FORMAT, maxPositionals: 1 } } },
        "pool-stats": CEPH_FORMAT,
      },
    },
    mon: { sub: { stat: CEPH_FORMAT, dump: CEPH_FORMAT } },
    mgr: { sub: { stat: CEPH_FORMAT } },
    pg: { sub: { stat: CEPH_FORMAT } },
    fs: { sub: { status: CEPH_FORMAT, ls: CEPH_FORMAT } },
  },
};

/** Proxmox VE and libvirt: guests, cluster and storage status (commands inside a guest are judged again). */
export const VIRTUALISATION_TOOLS: Record<string, ToolSpec> = {
  virsh: {
    argvScript: true,
    grants: [{ resource: "socket", service: "libvirt" }],
    sub: {
      list: { long: ["--all", "--name", "--state-running"] },
      dominfo: {},
      domstate: {},
      dumpxml: {},
      nodeinfo: {},
      version: {},
      "net-list": { long: ["--all"] },
      "pool-list": { long: ["--all"] },
      "vol-list": {},
      domblklist: {},
      domiflist: {},
      domifaddr: {},
    },
  },
  qm: proxmox("qm", qm),
  pct: proxmox("pct", pct),
  pvesh: proxmox("pvesh", { sub: { get: PVESH_READ, ls: PVESH_READ, usage: { ...PVESH_READ }, help: HELP } }),
  pvecm: proxmox("pvecm", { sub: { status: {}, nodes: {}, help: HELP } }),
  pveversion: { flags: "v", long: ["--verbose"] },
  pvesm: proxmox("pvesm", {
    sub: {
      status: { longValued: ["--storage", "--content", "--enabled", "--target", "--format"] },
      list: { longValued: ["--content", "--vmid"], maxPositionals: 1 },
      path: { maxPositionals: 1 },
      help: HELP,
    },
  }),
  "ha-manager": proxmox("ha-manager", { sub: { status: { long: ["--verbose"] }, config: {}, help: HELP } }),
  pveum: proxmox("pveum", {
    sub: {
      user: {
        sub: {
          list: PVEUM_LIST,
          permissions: { ...PVE_FORMAT, longValued: ["--output-format", "--path"], maxPositionals: 1 },
        },
      },
      group: { sub: { list: PVEUM_LIST } },
      role: { sub: { list: PVEUM_LIST } },
      acl: { sub: { list: PVEUM_LIST } },
      pool: { sub: { list: PVEUM_LIST } },
      realm: { sub: { list: PVEUM_LIST } },
      help: HELP,
    },
  }),
  "pve-firewall": proxmox("pve-firewall", { sub: { status: {}, localnet: {}, help: HELP } }),
  ceph,
  "lxc-ls": {
    flags: "1fF",
    long: ["--fancy", "--active", "--running", "--stopped", "--frozen", "--defined"],
    longValued: ["--fancy-format", "--nesting", "--groups"],
    grants: unjailed("LXC command sockets", "lxc-ls"),
  },
};
