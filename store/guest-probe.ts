import type { Kysely } from "kysely";
import {
  GUEST_OS_ATTRIBUTE,
  GUEST_PROBED_AT_ATTRIBUTE,
  GUEST_SHELL_ATTRIBUTE,
  GUEST_SHELL_SOURCE_ATTRIBUTE,
  type GuestOs,
  type GuestShell,
} from "../policy/guest-shell.ts";
import { recordAudit } from "./audit.ts";
import { updateEntityAttributes } from "./entities.ts";
import type { Database, Entity } from "./schema.ts";

/** What a probe inside a guest found (policy/guest-shell.ts). */
export interface GuestProbe {
  shell: GuestShell;
  os: GuestOs;
}

/**
 * Records a guest's probed shell and OS on its entity (`guest.shell`, `guest.shell_source: probe`,
 * `guest.os`, `guest.probed_at`) and audits it as `guest.probed` with what was recorded before. These
 * attributes are routing (how a command reaches the guest): only oikos's own probe writes them.
 * Returns whether the shell or OS changed.
 */
export async function recordGuestProbe(
  db: Kysely<Database>,
  entity: Entity,
  probe: GuestProbe,
  now: Date,
): Promise<boolean> {
  const before = {
    shell: entity.attributes[GUEST_SHELL_ATTRIBUTE] ?? null,
    source: entity.attributes[GUEST_SHELL_SOURCE_ATTRIBUTE] ?? null,
    os: entity.attributes[GUEST_OS_ATTRIBUTE] ?? null,
  };
  const changed = before.shell !== probe.shell || before.os !== probe.os || before.source !== "probe";
  const context = { by: "oikos" };
  await updateEntityAttributes(
    db,
    entity.slug,
    {
      [GUEST_SHELL_ATTRIBUTE]: probe.shell,
      [GUEST_SHELL_SOURCE_ATTRIBUTE]: "probe",
      [GUEST_OS_ATTRIBUTE]: probe.os,
      [GUEST_PROBED_AT_ATTRIBUTE]: now.toISOString(),
    },
    context,
  );
  if (changed) {
    await recordAudit(db, context, {
      action: "guest.probed",
      subject: entity.slug,
      details: { shell: probe.shell, os: probe.os, before },
    });
  }
  return changed;
}
