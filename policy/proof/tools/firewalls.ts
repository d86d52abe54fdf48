import type { ProofWord } from "../proof-word.ts";
import type { ToolSpec } from "../tool-spec.ts";
import { NET_ADMIN, unjailed } from "./grant-helpers.ts";
import { optionBundle } from "./no-name-lookups.ts";

/**
 * `-L` without `-n` looks up every address of the rules in DNS, from outside the jail (these run
 * unjailed: CAP_NET_ADMIN): packets leave, and it hangs without a resolver. Proven only with `-n`.
 */
function numericList(name: string) {
  return (args: readonly ProofWord[]) => {
    // `-tnat` is `-t nat`: the letters after -t are its value, not flags
    const has = (letter: string, long: string) =>
      args.some(
        (a) =>
          a.static &&
          (a.value === long ||
            (/^-[a-zA-Z]/.test(a.value) && optionBundle(a.value, "t").flags.includes(letter))),
      );
    const listing = has("L", "--list");
    const numeric = has("n", "--numeric");
    if (listing && !numeric)
      return `\`${name} -L\` without \`-n\` resolves every rule's address in DNS; use \`${name} -L -n\` (or \`${name} -S\`)`;
    return args.some(
      (a) =>
        a.static && (/^-[a-zA-Z]*[LS]/.test(a.value) || a.value === "--list" || a.value === "--list-rules"),
    )
      ? null
      : `${name} without -L/-S changes rules`;
  };
}

/** Naming any other table makes the kernel load a module for it (`request_module("iptable_NAME")`). */
const isBuiltinTable = (table: string) => ["filter", "nat", "mangle", "raw", "security"].includes(table);

/** Firewall and VPN listings. */
export const FIREWALL_TOOLS: Record<string, ToolSpec> = {
  iptables: {
    grants: unjailed(NET_ADMIN, "iptables"),
    flags: "LSnvx",
    valued: "t",
    long: ["--list", "--list-rules", "--numeric", "--verbose", "--line-numbers", "--exact"],
    longValued: ["--table"],
    values: { "-t": isBuiltinTable, "--table": isBuiltinTable },
    check: numericList("iptables"),
  },
  ip6tables: {
    grants: unjailed(NET_ADMIN, "ip6tables"),
    flags: "LSnvx",
    valued: "t",
    long: ["--list", "--list-rules", "--numeric", "--verbose", "--line-numbers", "--exact"],
    longValued: ["--table"],
    values: { "-t": isBuiltinTable, "--table": isBuiltinTable },
    check: numericList("ip6tables"),
  },
  "iptables-save": {
    flags: "c",
    valued: "t",
    values: { "-t": isBuiltinTable },
    grants: unjailed(NET_ADMIN, "iptables-save"),
  },
  "ip6tables-save": {
    flags: "c",
    valued: "t",
    values: { "-t": isBuiltinTable },
    grants: unjailed(NET_ADMIN, "ip6tables-save"),
  },
  nft: {
    flags: "ajnstcy",
    long: ["--version", "--handle", "--numeric", "--stateless", "--terse", "--json"],
    argvScript: true,
    grants: unjailed(NET_ADMIN, "nft"),
    sub: { list: { anyOption: true } },
  },
  ufw: { sub: { status: { maxPositionals: 1 } } },
  wg: { bareOk: true, grants: unjailed(NET_ADMIN, "wg"), sub: { show: { maxPositionals: 2 } } },
  tailscale: {
    sub: {
      status: { long: ["--json", "--peers", "--self"] },
      ip: { flags: "46" },
      version: {},
      netcheck: {},
    },
  },
  "firewall-cmd": {
    long: [
      "--state",
      "--list-all",
      "--list-services",
      "--list-ports",
      "--get-active-zones",
      "--get-default-zone",
      "--list-all-zones",
      "--permanent",
    ],
    longValued: ["--zone"],
  },
};
