import { recordedShell, shellWords } from "../../policy/guest-shell.ts";
import type { Executor } from "../../store/audit.ts";
import { type Entity, findEntity } from "../../store/entities.ts";
import type { Target } from "../ssh/target.ts";

/** `missing`: there is no such entity at all (the run gate's unknown_target), else it cannot be run on. */
export type ResolvedTarget =
  | { ok: true; target: Target; entity: Entity }
  | { ok: false; missing: boolean; reason: string };

export interface TargetDefaults {
  /** SSH user when the entity names none (config ssh.user). */
  sshUser: string;
}

/**
 * Turns an entity into how to reach it: `ssh` from `ssh.host` / `ssh.port` / `ssh.user` attributes,
 * `pct-exec` / `qm-guest-exec` through the parent host with the `vmid` attribute, `local`.
 * A reason comes back (never an exception) when the entity cannot be run on.
 */
export async function resolveTarget(
  db: Executor,
  slug: string,
  defaults: TargetDefaults,
): Promise<ResolvedTarget> {
  const entity = await findEntity(db, slug);
  if (!entity) return { ok: false, missing: true, reason: `there is no entity ${slug}` };
  return targetOf(db, entity, defaults, 0);
}

async function targetOf(
  db: Executor,
  entity: Entity,
  defaults: TargetDefaults,
  depth: number,
): Promise<ResolvedTarget> {
  const notRunnable = (reason: string): ResolvedTarget => ({ ok: false, missing: false, reason });
  if (entity.state === "destroyed") return notRunnable(`${entity.slug} is destroyed`);
  const attrs = entity.attributes;
  switch (entity.transport) {
    case "local":
      return { ok: true, entity, target: { slug: entity.slug, transport: "local" } };
    case "ssh": {
      const host = text(attrs["ssh.host"]) ?? text(attrs.ansible_host) ?? entity.name;
      const port = Number(attrs["ssh.port"] ?? 22);
      if (!Number.isInteger(port) || port < 1 || port > 65_535) {
        return notRunnable(`${entity.slug} has an invalid ssh.port`);
      }
      const username = text(attrs["ssh.user"]) ?? defaults.sshUser;
      return {
        ok: true,
        entity,
        target: { slug: entity.slug, transport: "ssh", ssh: { host, port, username } },
      };
    }
    case "pct-exec":
    case "qm-guest-exec": {
      const vmid = Number(attrs.vmid ?? attrs["proxmox.vmid"]);
      if (!Number.isInteger(vmid) || vmid <= 0) {
        return notRunnable(`${entity.slug} uses ${entity.transport} but has no vmid attribute`);
      }
      if (!entity.parent_slug || depth > 0) {
        return notRunnable(`${entity.slug} uses ${entity.transport} but has no owning host (parent)`);
      }
      const parent = await findEntity(db, entity.parent_slug);
      if (!parent) return notRunnable(`the owning host ${entity.parent_slug} of ${entity.slug} is unknown`);
      const via = await targetOf(db, parent, defaults, depth + 1);
      if (!via.ok) return notRunnable(via.reason);
      if (via.target.transport !== "ssh" && via.target.transport !== "local") {
        return notRunnable(`the owning host ${parent.slug} is not reachable over ssh or locally`);
      }
      const { shell } = recordedShell(attrs);
      if (shell === "none")
        return notRunnable(
          `${entity.slug} has ${shellWords(shell)} (probed ${String(attrs["guest.probed_at"] ?? "")}): commands cannot run in it. Run on its node, or ask the operator to check the guest`,
        );
      const guest = text(attrs["proxmox.name"]);
      return {
        ok: true,
        entity,
        target: {
          slug: entity.slug,
          transport: entity.transport,
          via: via.target,
          vmid,
          ...(guest ? { guest } : {}),
          ...(shell && shell !== "bash" ? { shell } : {}),
        },
      };
    }
    default:
      return notRunnable(
        `${entity.slug} has transport "${entity.transport}": commands cannot run on it. Run on its host, or ask the operator to give it a transport (\`oikos import\`).`,
      );
  }
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
