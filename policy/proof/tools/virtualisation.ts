import type { ProofContext, Verdict } from "../context.ts";
import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { execAfterDashes } from "../wrappers.ts";

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

/** Proxmox VE and libvirt: guests, cluster and storage status (commands inside a guest are judged again). */
export const VIRTUALISATION_TOOLS: Record<string, ToolSpec> = {
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
};
