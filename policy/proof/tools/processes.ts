import type { JailGrant } from "../../jail-grant.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { hasFlag, unjailed } from "./grant-helpers.ts";

const PROCESS_INFO: JailGrant = { resource: "process_info" };
const NETLINK: JailGrant = { resource: "netlink" };

/** Processes and what they hold open. */
export const PROCESS_TOOLS: Record<string, ToolSpec> = {
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
  // lsof -i reads /proc/net, which shows the jail's own network namespace unless the host's is granted.
  lsof: {
    flags: "lnPtRVwbhKQ",
    valued: "iupcgdaF+as",
    anyOption: true,
    grants: (args) => (hasFlag(args, "i") ? [PROCESS_INFO, NETLINK] : [PROCESS_INFO]),
  },
  // Not -k/-K (kill), -i (asks before killing) or a -SIGNAL.
  fuser: {
    flags: "vmuaMsw46",
    valued: "n",
    grants: (args) =>
      args.some((arg) => /^(tcp|udp)$|\/(tcp|udp)$/.test(arg.value))
        ? [PROCESS_INFO, NETLINK]
        : [PROCESS_INFO],
  },
  lsns: { flags: "lnrJ", valued: "ot", anyOption: true },
  // The jail has an IPC namespace of its own (an empty one): lsipc reads the machine's outside it.
  lsipc: { flags: "mqsgelnrbJ", grants: unjailed("the machine's IPC namespace", "lsipc") },
  lslocks: { flags: "nrJiu", valued: "op" },
};
