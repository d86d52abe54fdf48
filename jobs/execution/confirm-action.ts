import type { Classification } from "../../policy/risk.ts";

// Tools whose second word is the action: `pct destroy 101` confirms as "destroy", `rm -rf x` as "rm".
const SUBCOMMAND_TOOLS = new Set([
  "pct",
  "qm",
  "docker",
  "podman",
  "systemctl",
  "zfs",
  "zpool",
  "virsh",
  "lxc",
  "kubectl",
  "git",
  "apt",
  "apt-get",
  "dnf",
  "yum",
]);

/**
 * The action word of a typed confirmation (`confirm <action> <target>`, policy/consent grammar):
 * taken from the riskiest simple command, a plain lowercase word, "run" when nothing fits.
 */
export function confirmActionOf(classification: Classification): string {
  const segment =
    classification.segments.find((s) => s.risk === classification.risk) ?? classification.segments[0];
  const words = (segment?.text ?? "").replace(/^`|`$/g, "").trim().split(/\s+/);
  const tool = (words[0] ?? "").split("/").pop() ?? "";
  const candidate = SUBCOMMAND_TOOLS.has(tool) && words[1] && !words[1].startsWith("-") ? words[1] : tool;
  return /^[a-z][a-z0-9_-]*$/.test(candidate) ? candidate : "run";
}
