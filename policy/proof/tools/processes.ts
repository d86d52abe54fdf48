import type { ToolSpec } from "../tool-spec.ts";

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
  lsof: { flags: "lnPtRVwbhKQ", valued: "iupcgdaF+a", anyOption: true },
  lsns: { flags: "lnrJ", valued: "ot", anyOption: true },
  lsipc: { flags: "mqsgelnrbJ" },
  lslocks: { flags: "nrJiu", valued: "op" },
};
