import { z } from "zod";
import { GUEST_SHELLS, type GuestShell } from "../../policy/guest-shell.ts";

export const SshEndpointSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65_535).default(22),
  username: z.string().min(1),
});
export type SshEndpoint = z.output<typeof SshEndpointSchema>;

export const TransportSchema = z.enum(["ssh", "pct-exec", "qm-guest-exec", "local"]);
export type Transport = z.output<typeof TransportSchema>;

/**
 * How to reach one target. `ssh` needs `ssh`; `pct-exec` / `qm-guest-exec` need the owning Proxmox
 * host as `via` (itself an `ssh` or `local` target) and the guest's `vmid`; `local` needs nothing.
 */
export interface Target {
  slug: string;
  transport: Transport;
  ssh?: SshEndpoint;
  via?: Target;
  vmid?: number;
  /**
   * A Proxmox guest's name as discovery last recorded it: part of the routing stamp, so an approval
   * given before Proxmox renamed the guest (or reused its vmid) does not carry over.
   */
  guest?: string;
  /** The shell a command runs with when it is not bash (policy/guest-shell.ts): sh, ash, cmd. */
  shell?: Exclude<GuestShell, "bash" | "none">;
}

export const TargetSchema: z.ZodType<Target, unknown> = z
  .object({
    slug: z.string().min(1),
    transport: TransportSchema,
    ssh: SshEndpointSchema.optional(),
    get via() {
      return TargetSchema.optional();
    },
    vmid: z.number().int().positive().optional(),
    guest: z.string().optional(),
    shell: z
      .enum(GUEST_SHELLS.filter((s) => s !== "bash" && s !== "none") as ["sh", "ash", "cmd"])
      .optional(),
  })
  .superRefine((target, ctx) => {
    if (target.transport === "ssh" && target.ssh === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["ssh"],
        message: "an ssh target needs ssh {host, port, username}",
      });
    }
    if (target.transport === "pct-exec" || target.transport === "qm-guest-exec") {
      if (target.via === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["via"],
          message: `${target.transport} needs the owning host as via`,
        });
      } else if (target.via.transport !== "ssh" && target.via.transport !== "local") {
        ctx.addIssue({
          code: "custom",
          path: ["via"],
          message: "the owning host must be an ssh or local target",
        });
      }
      if (target.vmid === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["vmid"],
          message: `${target.transport} needs the guest's vmid`,
        });
      }
    }
  });

/** Pool key and host-key-store key: one connection pool entry per user@host:port. */
export function endpointKey(endpoint: SshEndpoint): string {
  return `${endpoint.username}@${hostPort(endpoint)}`;
}

/** `host:port`, the key a HostKeyStore is asked about. IPv6 literals are bracketed. */
export function hostPort(endpoint: Pick<SshEndpoint, "host" | "port">): string {
  const host = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host;
  return `${host}:${endpoint.port}`;
}
