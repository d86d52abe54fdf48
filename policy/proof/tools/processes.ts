import type { ToolSpec } from "../tool-spec.ts";
import { PROCESS_INFO, unjailed } from "./grant-helpers.ts";
import { fuserOutsideResolvesNothing, lsofOutsideResolvesNothing } from "./no-name-lookups.ts";

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
  // Other processes' descriptors: outside the jail by name (lsof has no option that writes or
  // signals); not -r (repeats until stopped), and numeric only (no-name-lookups.ts).
  lsof: {
    flags: "lnPtRVwbhKQa",
    valued: "iupcgdFs",
    check: lsofOutsideResolvesNothing,
    grants: unjailed(PROCESS_INFO, "lsof"),
  },
  // Not -k/-K (kill), -i (asks before killing) or a -SIGNAL; outside the jail by name, as lsof.
  fuser: {
    flags: "vmuaMsw46",
    valued: "n",
    check: fuserOutsideResolvesNothing,
    grants: unjailed(PROCESS_INFO, "fuser"),
  },
  lsns: { flags: "lnrJ", valued: "ot", anyOption: true },
  // The jail has an IPC namespace of its own (an empty one): lsipc reads the machine's outside it.
  lsipc: { flags: "mqsgelnrbJ", grants: unjailed("the machine's IPC namespace", "lsipc") },
  lslocks: { flags: "nrJiu", valued: "op" },
};
