import type { Kysely } from "kysely";
import {
  JAIL_ATTRIBUTE,
  JAIL_CHECKED_ATTRIBUTE,
  type JailAvailability,
  jailAttribute,
  jailAvailabilityOf,
} from "../policy/jail.ts";
import { recordAudit } from "./audit.ts";
import { updateEntityAttributes } from "./entities.ts";
import type { Database, Entity } from "./schema.ts";

/**
 * Records on the entity whether the target can run the read-only jail (`jail: available` or
 * `jail: unavailable: <why>`, with `jail_checked_at`), and audits it as `target.jail_detected`.
 * Once per target: nothing is written while the entity already says the same (an `unavailable` is
 * re-dated when it was old enough to be tried again). Returns whether it wrote.
 */
export async function recordJailDetection(
  db: Kysely<Database>,
  entity: Entity,
  detected: Exclude<JailAvailability, { state: "unknown" }>,
  now: Date,
): Promise<boolean> {
  const value = jailAttribute(detected);
  const known = jailAvailabilityOf(entity.attributes, now);
  if (entity.attributes[JAIL_ATTRIBUTE] === value && known.state !== "unknown") return false;
  const context = { by: "oikos" };
  await updateEntityAttributes(
    db,
    entity.slug,
    { [JAIL_ATTRIBUTE]: value, [JAIL_CHECKED_ATTRIBUTE]: now.toISOString() },
    context,
  );
  await recordAudit(db, context, {
    action: "target.jail_detected",
    subject: entity.slug,
    details:
      detected.state === "available"
        ? { jail: "available" }
        : { jail: "unavailable", reason: detected.reason },
  });
  return true;
}

/**
 * The audit line of a read-only execution that ran: inside the jail or not, and why not
 * (`execution.jail`). Approved executions are audited with their approval.
 */
export async function auditExecutionJail(
  db: Kysely<Database>,
  execution: { id: string; session_id: string | null; target: string },
  jailed: boolean,
  note: string | null,
): Promise<void> {
  await recordAudit(
    db,
    { by: "oikos", sessionId: execution.session_id },
    {
      action: "execution.jail",
      subject: execution.id,
      details: { target: execution.target, jailed, ...(note === null ? {} : { note }) },
    },
  );
}
