import { z } from "zod";
import { jailGrantsSchema } from "../../policy/jail-grant.ts";

/**
 * One row of the daily-diagnostics corpus: a command a homelab operator runs every day, what the
 * classifier must say of it (read_only, with exactly these grants, so it runs with nobody asked
 * and the jail opens exactly what it needs), and whether this machine's lab can run it.
 */
export const DIAGNOSTIC_AREAS = [
  "zfs",
  "smart_nvme",
  "disks",
  "lvm",
  "mdadm",
  "kernel_log",
  "firewall",
  "wireguard",
  "sockets",
  "systemd",
  "containers",
  "proxmox",
  "networking",
  "dry_run",
  "help_version",
  "host",
  "files",
] as const;
export type DiagnosticArea = (typeof DIAGNOSTIC_AREAS)[number];

/**
 * What the lab must provide before the row runs there:
 * - `none`: the machine as it is;
 * - `loop_disk`: a loop block device with a GPT partition table and an ext4 filesystem on its first
 *   partition (`{{disk}}`, `{{partition}}` in the lab command);
 * - `net_namespace`: a test network namespace with a veth pair, nftables/iptables rules and an
 *   address on `{{interface}}`;
 * - `listener`: a loopback TCP listener the test started (`{{port}}`).
 */
export const LAB_FIXTURES = ["none", "loop_disk", "net_namespace", "listener"] as const;
export type LabFixture = (typeof LAB_FIXTURES)[number];

const labSchema = z.discriminatedUnion("runs", [
  z
    .object({
      runs: z.literal("here"),
      fixture: z.enum(LAB_FIXTURES),
      /** The same diagnostic against the lab's resource, when the homelab name does not exist here. */
      command: z.string().min(1).optional(),
      /** Debian packages the lab installs first (scripts/install-test-deps.sh). */
      packages: z.array(z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/)).optional(),
    })
    .strict(),
  z.object({ runs: z.literal("not_here"), why: z.string().min(10) }).strict(),
]);
export type DiagnosticLab = z.infer<typeof labSchema>;

export const diagnosticRowSchema = z
  .object({
    command: z.string().min(1),
    area: z.enum(DIAGNOSTIC_AREAS),
    risk: z.literal("read_only"),
    grants: jailGrantsSchema,
    lab: labSchema,
  })
  .strict();
export type DiagnosticRow = z.infer<typeof diagnosticRowSchema>;

/** The placeholders a lab command may hold, each provided by one fixture. */
export const LAB_PLACEHOLDERS: Readonly<Record<string, LabFixture>> = {
  "{{disk}}": "loop_disk",
  "{{partition}}": "loop_disk",
  "{{interface}}": "net_namespace",
  "{{port}}": "listener",
};
