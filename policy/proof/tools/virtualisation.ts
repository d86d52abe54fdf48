import type { ProofContext, Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { execAfterDashes } from "../wrappers.ts";
import { hasFlag, PROXMOX_IPC, unjailed } from "./grant-helpers.ts";

function proxmoxExec(what: "pct exec" | "qm guest exec") {
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
    // Not `showcmd`: it activates the guest's volumes (LVM, rbd map, iSCSI) and never undoes it.
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
    // Not `df`: for a stopped container it locks it in /etc/pve and mounts its root file system.
    cpusets: {},
    help: HELP,
    exec: { custom: proxmoxExec("pct exec") },
  },
};

/**
 * `pvesh get|ls PATH` runs the API handler of PATH as root, outside the jail, and some GET handlers
 * act: `/nodes/N/query-url-metadata --url`, `/cluster/acme/meta|tos --directory` and
 * `/nodes/N/apt/changelog` fetch from the network, `/nodes/N/scan/*` runs showmount, smbclient or
 * iscsiadm against a server, `…/file-restore/list` starts a restore VM, `…/agent/*` talks to a guest.
 * So only a closed list of paths whose handlers read the cluster's state is proven (PVE's API
 * schema), each with read parameters only; anything else asks. `pvesh usage PATH` reads the schema.
 */
const NODE = "[A-Za-z0-9][A-Za-z0-9.-]*";
const VMID = "[1-9][0-9]{2,8}";
const NAME = "[A-Za-z0-9][A-Za-z0-9._-]*";
const PVESH_PATHS: readonly RegExp[] = [
  "version",
  "cluster",
  "cluster/(resources|status|tasks|options|log|backup|replication|config/nodes)",
  "cluster/ha(/(status(/(current|manager_status))?|resources|groups))?",
  `cluster/ha/resources/(vm|ct):${VMID}`,
  `pools(/${NAME})?`,
  `storage(/${NAME})?`,
  "access/(users|groups|roles|acl|domains)",
  "nodes",
  `nodes/${NODE}`,
  `nodes/${NODE}/(status|version|time|dns|netstat|network|services|tasks|replication|syslog|journal|rrddata|subscription|disks/list|storage)`,
  `nodes/${NODE}/network/${NAME}`,
  `nodes/${NODE}/services/${NAME}(/state)?`,
  `nodes/${NODE}/tasks/UPID:[A-Za-z0-9:._@!-]+/(status|log)`,
  `nodes/${NODE}/storage/${NAME}/status`,
  `nodes/${NODE}/(qemu|lxc)`,
  `nodes/${NODE}/(qemu|lxc)/${VMID}(/(config|pending|snapshot|rrddata|status(/current)?|firewall/(rules|options)))?`,
].map((path) => new RegExp(`^/?${path}/?$`));

/** Parameters of the GETs above that only choose what is read and how it is printed. */
const PVESH_PARAMETERS = new Set([
  "--type",
  "--output-format",
  "--limit",
  "--start",
  "--errors",
  "--source",
  "--vmid",
  "--typefilter",
  "--statusfilter",
  "--userfilter",
  "--since",
  "--until",
  "--lastentries",
  "--timeframe",
  "--cf",
  "--full",
  "--enabled",
  "--current",
  "--snapshot",
  "--storage",
  "--content",
  "--format",
  "--include-partitions",
  "--skipsmart",
]);

const PVESH_READ: ToolSpec = { custom: (args) => pveshRead(args) };
const PVESH_USAGE: ToolSpec = { custom: (args) => pveshRead(args, true) };
/** pvesh's own switches, whose value is optional (`--noborder` or `--noborder 1`). */
const PVESH_SWITCHES = new Set(["--noborder", "--noheader", "--human-readable", "--quiet", "--verbose"]);

function pveshRead(args: readonly ProofWord[], schemaOnly = false): Verdict {
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as ProofWord;
    if (!arg.static) return `\`pvesh … ${arg.raw}\` is only known at run time`;
    if (!arg.value.startsWith("-")) {
      paths.push(arg.value);
      continue;
    }
    const option = /^(--[a-z][a-z0-9-]*)(=.*)?$/s.exec(arg.value)?.[1];
    if (!option) return `\`pvesh ${arg.value}\` is not a parameter of a GET`;
    const next = args[i + 1];
    if (PVESH_SWITCHES.has(option)) {
      if (!arg.value.includes("=") && /^(0|1|true|false|yes|no)$/.test(next?.value ?? "")) i++;
      continue;
    }
    if (!schemaOnly && !PVESH_PARAMETERS.has(option))
      return `\`pvesh … ${option}\` is not among the read parameters oikos proves (${[...PVESH_PARAMETERS].slice(0, 6).join(", ")} …); ask for it as a plan step`;
    if (arg.value.includes("=")) continue;
    if (!next) return `\`pvesh ${arg.value}\` needs a value`;
    i++;
  }
  if (paths.length !== 1) return "`pvesh get|ls` takes one API path";
  const path = paths[0] as string;
  if (schemaOnly || PVESH_PATHS.some((read) => read.test(path))) return null;
  return `\`pvesh get ${path}\` runs an API handler oikos has not proven to only read (some GETs fetch URLs, scan servers or start a restore VM); ask for it as a plan step, or read /cluster/resources, /nodes/NODE/status, /nodes/NODE/qemu/VMID/config …`;
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
  pvesh: proxmox("pvesh", { sub: { get: PVESH_READ, ls: PVESH_READ, usage: PVESH_USAGE, help: HELP } }),
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
    // Not --nesting: its value is optional (it takes the next word as an option) and it attaches
    // into running containers. -F takes a value (the columns).
    flags: "1f",
    valued: "F",
    long: ["--fancy", "--active", "--running", "--stopped", "--frozen", "--defined"],
    longValued: ["--fancy-format", "--groups"],
    grants: unjailed("LXC command sockets", "lxc-ls"),
  },
};
