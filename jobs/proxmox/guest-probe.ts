import { z } from "zod";
import {
  type GuestOs,
  type GuestShell,
  osFromAgentId,
  recordedShell,
  SHELL_PROBE,
  shellFromProbe,
} from "../../policy/guest-shell.ts";
import type { Db } from "../../store/db.ts";
import type { Entity } from "../../store/entities.ts";
import { findEntity } from "../../store/entities.ts";
import { type GuestProbe, recordGuestProbe } from "../../store/guest-probe.ts";
import { resolveTarget, type TargetDefaults } from "../execution/target-resolver.ts";
import { commandWords } from "../ssh/command-words.ts";
import { shellLine } from "../ssh/shell-quote.ts";
import type { Target } from "../ssh/target.ts";
import type { NodeRunner } from "./node-runner.ts";
import { framedCommand, parseFramed } from "./pvesh-batch.ts";

/** Seconds a probe may take inside a guest. */
const PROBE_SECONDS = 20;

/** `qm guest cmd <vmid> get-osinfo`: the agent's guest-get-osinfo, of which the `id` tells Windows. */
const osInfoSchema = z.looseObject({ id: z.string().optional() });

/**
 * Which shell a guest has, asked inside it (policy/guest-shell.ts SHELL_PROBE, run with `sh -c` so it
 * runs where bash is missing). A container through `pct exec`; a VM first asks its guest agent for the
 * OS (Windows has no sh: it runs cmd.exe), then, on Linux, the same probe through `qm guest exec`.
 * Null when the guest could not be asked (stopped, no agent): nothing is recorded then.
 */
export async function probeGuest(runner: NodeRunner, target: Target): Promise<GuestProbe | null> {
  if (target.vmid === undefined || target.via === undefined) return null;
  let os: GuestOs = "linux";
  if (target.transport === "qm-guest-exec") {
    const info = await runner
      .exec(target.via, `qm guest cmd ${target.vmid} get-osinfo`, { timeoutMs: PROBE_SECONDS * 1000 })
      .catch(() => null);
    if (info?.exitCode !== 0) return null;
    const parsed = osInfoSchema.safeParse(safeJson(info.stdout));
    os = osFromAgentId(parsed.success ? parsed.data.id : undefined);
    if (os === "windows") return { os, shell: "cmd" };
  }
  try {
    const result = await runner.exec(target, SHELL_PROBE, { shell: "sh", timeoutMs: PROBE_SECONDS * 1000 });
    if (result.timedOut) return null;
    const shell = shellFromProbe(result);
    return shell === null ? null : { os, shell };
  } catch (error) {
    // qm guest exec without the agent's JSON: the agent could not start sh, or did not answer
    const shell = shellFromProbe({
      exitCode: -1,
      stdout: "",
      stderr: error instanceof Error ? error.message : "",
    });
    return shell === null ? null : { os, shell };
  }
}

/**
 * First contact: before a command runs on a guest whose shell no probe has confirmed, probe it and
 * record what it found. Returns the entity as it is now (the caller resolves the target again: a
 * shell other than the one the command was graded for is a routing change).
 */
export async function probeAtFirstContact(
  deps: { db: Db; runner: NodeRunner },
  entity: Entity,
  target: Target,
  now = new Date(),
): Promise<Entity> {
  if (target.transport !== "pct-exec" && target.transport !== "qm-guest-exec") return entity;
  if (recordedShell(entity.attributes).probed) return entity;
  const probe = await probeGuest(deps.runner, target);
  if (!probe) return entity;
  await recordGuestProbe(deps.db, entity, probe, now);
  return (await findEntity(deps.db, entity.slug)) ?? entity;
}

/**
 * At discovery: the running containers whose shell neither a probe nor their ostype settles (Alpine,
 * `unmanaged`), probed in one command per node, the nodes side by side. VMs are probed at first
 * contact (their agent answers slowly, and Windows is told by the ostype).
 */
export async function probeContainersAtDiscovery(
  deps: { db: Db; runner: NodeRunner; targets: TargetDefaults },
  slugs: readonly string[],
  now = new Date(),
): Promise<{ slug: string; shell: GuestShell }[]> {
  const byNode = new Map<string, { via: Target; guests: { entity: Entity; vmid: number }[] }>();
  for (const slug of slugs) {
    const resolved = await resolveTarget(deps.db, slug, deps.targets);
    if (!resolved.ok || resolved.target.transport !== "pct-exec") continue;
    const { entity, target } = resolved;
    const recorded = recordedShell(entity.attributes);
    if (recorded.shell !== null || entity.state !== "active" || !target.via || target.vmid === undefined)
      continue;
    const group = byNode.get(target.via.slug) ?? { via: target.via, guests: [] };
    group.guests.push({ entity, vmid: target.vmid });
    byNode.set(target.via.slug, group);
  }
  const found: { slug: string; shell: GuestShell }[] = [];
  await Promise.all(
    [...byNode.values()].map(async ({ via, guests }) => {
      const items = guests.map(({ vmid }) => ({
        id: String(vmid),
        line: `${shellLine(["pct", "exec", String(vmid), "--", ...commandWords(SHELL_PROBE, { shell: "sh", timeoutSeconds: PROBE_SECONDS, killAfterSeconds: 5 })])} </dev/null`,
      }));
      const result = await deps.runner
        .exec(via, framedCommand(items), { timeoutMs: (PROBE_SECONDS + 10) * 1000 * items.length })
        .catch(() => null);
      if (!result) return;
      const framed = parseFramed(
        items.map((item) => item.id),
        result,
      );
      for (const { entity, vmid } of guests) {
        const frame = framed.get(String(vmid));
        if (!frame || frame.exit === null) continue;
        const shell = shellFromProbe({ exitCode: frame.exit, stdout: frame.stdout, stderr: frame.stderr });
        if (shell === null) continue;
        await recordGuestProbe(deps.db, entity, { shell, os: "linux" }, now);
        found.push({ slug: entity.slug, shell });
      }
    }),
  );
  return found.sort((a, b) => a.slug.localeCompare(b.slug));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
