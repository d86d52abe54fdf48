import type { ToolSpec } from "../tool-spec.ts";
import { KERNEL_LOG, unjailed } from "./grant-helpers.ts";

/** Hardware, kernel and performance counters. */
export const HARDWARE_TOOLS: Record<string, ToolSpec> = {
  lscpu: { flags: "aebcpxyJ", long: ["--json", "--extended", "--parse"] },
  lsusb: { flags: "vt", valued: "sd" },
  lspci: { flags: "mtvnkxbDPqQ", valued: "sdA" },
  lsmod: {},
  lsirq: { flags: "nJPs" },
  sensors: { flags: "AujfN" },
  dmidecode: {
    flags: "qu",
    valued: "tsH",
    longValued: ["--type", "--string", "--handle"],
    long: ["--quiet"],
  },
  // Not -c/-C (clear), -D/-E (console), -n (console level), -w/--follow (never ends, and it runs
  // outside the jail); outside the jail by name: where kernel.dmesg_restrict is 1 no jail can read
  // the ring buffer.
  dmesg: {
    grants: unjailed(KERNEL_LOG, "dmesg"),
    flags: "dehHkLlPrTtux",
    valued: "fl",
    long: [
      "--ctime",
      "--human",
      "--level",
      "--facility",
      "--color",
      "--time-format",
      "--nopager",
      "--kernel",
      "--userspace",
    ],
    longValued: ["--level", "--facility", "--color", "--time-format"],
  },
  iostat: { flags: "cdhkmNtxyz", valued: "pj", anyOption: true },
  vmstat: { flags: "afmnsdDpStw", valued: "S", anyOption: true },
  mpstat: { flags: "uAIn", valued: "PNo", anyOption: true },
  pidstat: { flags: "dHhIlrRsStuUvw", valued: "CGpT" },
  sar: { flags: "AbBdFHhIpqrRSuvwWyz", valued: "nPefsi", values: { "-o": () => false } },
  vnstat: { flags: "hdmyt", valued: "i" },
};
