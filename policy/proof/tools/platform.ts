import { proveArgv } from "../argv.ts";
import type { ProofContext, Verdict } from "../context.ts";
import { checkFind } from "../mini/find.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { COMPOSE_EXEC, DOCKER_EXEC, execAfterDashes, kubectlExec } from "../wrappers.ts";

/** Containers, Proxmox, storage. Only the inspecting subcommands, each with its own options. */

const FORMAT = ["--format", "--filter"];
const COMPOSE_GLOBAL: ToolSpec = {
  valued: "fp",
  longValued: [
    "--file",
    "--project-name",
    "--project-directory",
    "--env-file",
    "--profile",
    "--ansi",
    "--progress",
  ],
};
const compose: ToolSpec = {
  ...COMPOSE_GLOBAL,
  sub: {
    ps: {
      flags: "aq",
      long: ["--all", "--quiet", "--services"],
      longValued: ["--format", "--filter", "--status"],
      anyOption: true,
    },
    logs: {
      flags: "ft",
      valued: "n",
      long: ["--follow", "--timestamps", "--no-color", "--no-log-prefix"],
      longValued: ["--tail", "--since", "--until", "--index"],
      anyOption: true,
    },
    top: { anyOption: true },
    config: {
      flags: "q",
      long: ["--services", "--volumes", "--quiet", "--images", "--profiles", "--no-interpolate", "--hash"],
      longValued: ["--format"],
    },
    images: { flags: "q", long: ["--quiet"], longValued: ["--format"] },
    port: { longValued: ["--protocol", "--index"] },
    ls: { flags: "aq", long: ["--all", "--quiet"], longValued: ["--format", "--filter"] },
    version: { long: ["--short"], longValued: ["--format"] },
    events: { long: ["--json"] },
    exec: { custom: (args, ctx) => COMPOSE_EXEC(args, ctx) },
  },
};
const docker: ToolSpec = {
  valued: "Hc",
  longValued: ["--host", "--context"],
  sub: {
    ps: {
      flags: "aqsnl",
      valued: "fn",
      long: ["--all", "--quiet", "--size", "--no-trunc", "--latest"],
      longValued: [...FORMAT, "--last"],
      anyOption: true,
    },
    images: {
      flags: "aq",
      valued: "f",
      long: ["--all", "--digests", "--no-trunc", "--quiet"],
      longValued: FORMAT,
      anyOption: true,
    },
    inspect: {
      flags: "s",
      valued: "f",
      long: ["--size"],
      longValued: ["--format", "--type"],
      anyOption: true,
    },
    logs: {
      flags: "ft",
      valued: "n",
      long: ["--follow", "--timestamps", "--details"],
      longValued: ["--tail", "--since", "--until"],
      anyOption: true,
    },
    stats: {
      flags: "a",
      long: ["--no-stream", "--no-trunc", "--all"],
      longValued: ["--format"],
      anyOption: true,
    },
    top: { anyOption: true },
    port: { anyOption: true },
    version: { valued: "f", longValued: ["--format"] },
    info: { valued: "f", longValued: ["--format"] },
    network: {
      sub: {
        ls: { flags: "fq", long: ["--no-trunc", "--quiet"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"], anyOption: true },
      },
    },
    volume: {
      sub: {
        ls: { flags: "q", valued: "f", long: ["--quiet"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"], anyOption: true },
      },
    },
    image: {
      sub: {
        ls: { flags: "aq", long: ["--all", "--quiet", "--digests"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"] },
        history: { flags: "qH", long: ["--no-trunc"], longValued: ["--format"] },
      },
    },
    container: {
      sub: {
        ls: { flags: "aqs", long: ["--all", "--quiet", "--size", "--no-trunc"], longValued: FORMAT },
        inspect: { valued: "f", longValued: ["--format"] },
        logs: {
          flags: "ft",
          valued: "n",
          long: ["--follow", "--timestamps"],
          longValued: ["--tail", "--since", "--until"],
        },
        top: {},
        port: {},
      },
    },
    system: {
      sub: {
        df: { flags: "v", long: ["--verbose"], longValued: ["--format"] },
        info: { valued: "f", longValued: ["--format"] },
      },
    },
    compose,
    exec: { custom: (args, ctx) => DOCKER_EXEC(args, ctx) },
  },
};

const KUBE_GLOBAL = {
  valued: "nlo",
  flags: "Aw",
  long: ["--all-namespaces", "--show-labels", "--watch", "--no-headers", "--wide"],
  longValued: ["--namespace", "--context", "--selector", "--output", "--field-selector", "--sort-by"],
};
const kubectl: ToolSpec = {
  ...KUBE_GLOBAL,
  sub: {
    get: { ...KUBE_GLOBAL, anyOption: false },
    describe: KUBE_GLOBAL,
    logs: {
      ...KUBE_GLOBAL,
      flags: "fpA",
      valued: "nlc",
      long: ["--follow", "--previous", "--timestamps", "--all-containers"],
      longValued: ["--tail", "--since", "--container", "--namespace", "--context", "--selector"],
    },
    top: {
      ...KUBE_GLOBAL,
      sub: { pod: KUBE_GLOBAL, pods: KUBE_GLOBAL, node: KUBE_GLOBAL, nodes: KUBE_GLOBAL },
    },
    version: { long: ["--client", "--short"], longValued: ["--output"] },
    "cluster-info": {},
    "api-resources": {},
    explain: {},
    config: { sub: { "get-contexts": {}, "current-context": {}, view: { long: ["--minify"] } } },
    exec: { custom: kubectlExec },
  },
};

function proxmoxExec(what: string) {
  return (args: readonly ProofWord[], ctx: ProofContext): Verdict => execAfterDashes(args, ctx, what);
}

const QM_READ: ToolSpec = { long: ["--verbose", "--current"], longValued: ["--snapshot"], maxPositionals: 1 };
const qm: ToolSpec = {
  sub: {
    list: { long: ["--full"] },
    config: QM_READ,
    status: QM_READ,
    pending: QM_READ,
    listsnapshot: QM_READ,
    showcmd: { long: ["--pretty"], maxPositionals: 1 },
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
    exec: { custom: proxmoxExec("pct exec") },
  },
};

const ZFS_LIST: ToolSpec = { flags: "rHpd", valued: "otsSd", anyOption: true };
const LVM_REPORT: ToolSpec = {
  flags: "av",
  valued: "oOS",
  long: ["--noheadings", "--units", "--all", "--segments", "--nosuffix", "--separator", "--reportformat"],
  longValued: ["--units", "--options", "--sort", "--separator", "--reportformat", "--select"],
};

export const PLATFORM_TOOLS: Record<string, ToolSpec> = {
  docker,
  "docker-compose": compose,
  kubectl,
  helm: {
    sub: {
      list: {
        flags: "aA",
        valued: "n",
        long: ["--all-namespaces", "--all"],
        longValued: ["--namespace", "--output"],
      },
      status: { valued: "n" },
      history: { valued: "n" },
      version: {},
      get: { sub: { values: { valued: "n", flags: "a" }, manifest: { valued: "n" }, all: { valued: "n" } } },
      repo: { sub: { list: {} } },
    },
  },
  virsh: {
    argvScript: true,
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
  qm,
  pct,
  pvesh: { sub: { get: { longValued: ["--output-format", "--noborder", "--noheader"], maxPositionals: 1 } } },
  pvecm: { sub: { status: {}, nodes: {} } },
  pveversion: { flags: "v", long: ["--verbose"] },
  pvesm: {
    sub: {
      status: { longValued: ["--storage", "--content", "--enabled"] },
      list: { longValued: ["--content", "--vmid"], maxPositionals: 1 },
    },
  },
  "ha-manager": { sub: { status: { long: ["--verbose"] }, config: {} } },
  zfs: { sub: { list: ZFS_LIST, get: { ...ZFS_LIST, flags: "rHpd", valued: "otsd", anyOption: true } } },
  zpool: {
    sub: {
      status: { flags: "xvPpLgDtT", valued: "Tc" },
      list: { flags: "HgLpPv", valued: "oT" },
      iostat: { flags: "vlHgLpPqryw", valued: "T" },
      history: { flags: "il" },
      get: { flags: "Hp", valued: "o" },
    },
  },
  lvs: LVM_REPORT,
  vgs: LVM_REPORT,
  pvs: LVM_REPORT,
  lvdisplay: { flags: "acmv", long: ["--maps", "--units"] },
  vgdisplay: { flags: "acsv" },
  pvdisplay: { flags: "acmsv" },
  lsblk: {
    flags: "abdDfimnlpPrsStOJzZ",
    valued: "oxeIE",
    long: ["--json", "--fs", "--list", "--paths", "--bytes", "--nodeps", "--output-all"],
    longValued: ["--output", "--sort"],
  },
  blkid: {
    flags: "gilLopUsV",
    valued: "stU",
    check: (args) =>
      args.some((a) => a.static && /^-[a-zA-Z]*[cw]/.test(a.value))
        ? "blkid -c/-w writes its cache file"
        : null,
  },
  smartctl: {
    flags: "aHixAcjq",
    valued: "dlTq",
    long: ["--all", "--health", "--info", "--xall", "--attributes", "--capabilities", "--json", "--scan"],
    longValued: ["--device", "--log", "--tolerance"],
  },
  mdadm: {
    flags: "DEQv",
    long: ["--detail", "--examine", "--query", "--scan", "--detail-platform", "--verbose", "--brief"],
  },
  btrfs: {
    sub: {
      filesystem: { sub: { usage: { flags: "bhHkmgtT" }, show: { flags: "dm" }, df: { flags: "bhHkmgtT" } } },
      subvolume: { sub: { list: { flags: "aopcgusqRt" }, show: {} } },
      device: {
        sub: {
          stats: {
            flags: "c",
            check: (args) =>
              args.some((a) => a.value.includes("z")) ? "btrfs device stats -z resets the counters" : null,
          },
        },
      },
      scrub: { sub: { status: { flags: "dRH" } } },
      balance: { sub: { status: { flags: "v" } } },
      qgroup: { sub: { show: { flags: "pcreF" } } },
    },
  },
  exportfs: { flags: "vs", maxPositionals: 0 },
  showmount: { flags: "ead", long: ["--exports", "--all", "--directories"] },
  nfsstat: { flags: "scnrlmvZ234o", valued: "o" },
  rpcinfo: { flags: "psmlT" },
  tar: { custom: tarListing, helpers: ["gzip", "bzip2", "xz", "zstd", "lzip", "lzop"] },
  find: { custom: (args, ctx) => checkFindImport(args, ctx) },
};
function checkFindImport(args: readonly ProofWord[], ctx: ProofContext): Verdict {
  return checkFind(args, ctx, (argv, context) => proveArgv(argv, context, true));
}

/** `tar tzf x.tgz`, `tar -tvf x`, `tar --list -f x`: listing only, never extracting or creating. */
function tarListing(args: readonly ProofWord[]): Verdict {
  const first = args[0];
  if (!first?.static) return "tar without a fixed mode";
  const bundle = first.value.startsWith("-") ? first.value.slice(1) : first.value;
  const listing = first.value === "--list" || /^[tvzjJaf]+$/.test(bundle);
  if (!listing || !(bundle.includes("t") || first.value === "--list"))
    return "tar other than listing (t) writes or extracts";
  for (const arg of args.slice(1)) {
    if (
      arg.static &&
      arg.value.startsWith("-") &&
      !/^-[tvzjJaf]+$/.test(arg.value) &&
      arg.value !== "--list"
    ) {
      return `\`tar ${arg.value}\` is not an option proven read-only`;
    }
    if (!arg.static && !arg.value.startsWith("-"))
      return "a tar archive name only known at run time could be `host:file`, which tar reaches by running rsh";
    if (arg.static && !arg.value.startsWith("-") && arg.value.includes(":"))
      return `\`${arg.value}\` names an archive on another host, which tar reaches by running rsh`;
    if (
      arg.static &&
      /^--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rmt-command|rsh-command)/.test(
        arg.value,
      )
    ) {
      return "tar runs a program with this option";
    }
  }
  return null;
}
