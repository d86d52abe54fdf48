import type { Kysely } from "kysely";
import {
  grantsUnavailableOf,
  JAIL_ATTRIBUTE,
  JAIL_CHECKED_ATTRIBUTE,
  JAIL_ENGINE_ATTRIBUTE,
  JAIL_GRANTS_ATTRIBUTE,
  JAIL_UNJAILED_ALLOWED,
  JAIL_UNJAILED_ATTRIBUTE,
  type JailAvailability,
  jailAttribute,
  jailAvailabilityOf,
} from "../policy/jail.ts";
import type { JailGrant } from "../policy/jail-grant.ts";
import { DEFAULT_APPROVAL_TTL_MS } from "./approvals.ts";
import { recordAudit } from "./audit.ts";
import { updateEntityAttributes } from "./entities.ts";
import { requestRoutingChange } from "./routing-approval.ts";
import type { Database, Entity } from "./schema.ts";

/**
 * Records on the entity whether the target can run the read-only jail (`jail: available` or
 * `jail: unavailable: <why>`, with `jail.checked_at`, and `jail.engine`: the engine that held it),
 * and audits it as `target.jail_detected`.
 * Nothing is written while the entity already says the same (an `unavailable` is re-dated when it
 * was old enough to be tried again). Returns whether the detection changed (a new answer, not a
 * re-dated one): the operator is told only then.
 */
export async function recordJailDetection(
  db: Kysely<Database>,
  entity: Entity,
  detected: Exclude<JailAvailability, { state: "unknown" }>,
  now: Date,
  engine?: string | null,
): Promise<boolean> {
  const value = jailAttribute(detected);
  const known = jailAvailabilityOf(entity.attributes, now);
  const before = entity.attributes[JAIL_ATTRIBUTE];
  const engineKnown = !engine || entity.attributes[JAIL_ENGINE_ATTRIBUTE] === engine;
  if (before === value && known.state !== "unknown" && engineKnown) return false;
  const context = { by: "oikos" };
  await updateEntityAttributes(
    db,
    entity.slug,
    {
      [JAIL_ATTRIBUTE]: value,
      [JAIL_CHECKED_ATTRIBUTE]: now.toISOString(),
      ...(detected.state === "available" && engine ? { [JAIL_ENGINE_ATTRIBUTE]: engine } : {}),
    },
    context,
  );
  await recordAudit(db, context, {
    action: "target.jail_detected",
    subject: entity.slug,
    details:
      detected.state === "available"
        ? { jail: "available", ...(engine ? { engine } : {}) }
        : { jail: "unavailable", reason: detected.reason },
  });
  return before !== value;
}

/**
 * A grant the target cannot make (`jail.grants_unavailable: { resource: why }`), recorded once per
 * change and audited: the next read-only command that needs it asks the operator instead of failing.
 */
export async function recordGrantUnavailable(
  db: Kysely<Database>,
  entity: Entity,
  grant: { resource: JailGrant["resource"]; reason: string },
): Promise<boolean> {
  const known = grantsUnavailableOf(entity.attributes);
  if (known[grant.resource] === grant.reason) return false;
  const context = { by: "oikos" };
  await updateEntityAttributes(
    db,
    entity.slug,
    { [JAIL_GRANTS_ATTRIBUTE]: { ...known, [grant.resource]: grant.reason } },
    context,
  );
  await recordAudit(db, context, {
    action: "target.jail_grant_unavailable",
    subject: entity.slug,
    details: { resource: grant.resource, reason: grant.reason },
  });
  return true;
}

/**
 * Shows the operator, once, in the thread of the session that found it, that a target cannot jail,
 * with a one-reaction choice: an approval (subject `routing`) of `jail.unjailed_read_only=allowed`
 * on it. Approved, it is a standing operator decision (audited as routing_changed; revoked with
 * `oikos routing <slug> jail.unjailed_read_only=`); the model can never set it. Returns the
 * approval id, or null when the session already waits on a routing change (then `!entity` shows it).
 */
export async function offerUnjailedReadOnly(
  db: Kysely<Database>,
  input: { sessionId: string; slug: string; reason: string; now: Date },
): Promise<string | null> {
  const requested = await requestRoutingChange(db, {
    sessionId: input.sessionId,
    slug: input.slug,
    patch: { [JAIL_UNJAILED_ATTRIBUTE]: JAIL_UNJAILED_ALLOWED },
    reason: `${input.slug} cannot run the read-only jail (${input.reason}), so no command runs there with nobody asked. Approve to let read-only commands run there unjailed (a standing decision; revoke with \`oikos routing ${input.slug} ${JAIL_UNJAILED_ATTRIBUTE}=\`); deny to keep asking for each one.`,
    requestedBy: "oikos",
    expiresAt: new Date(input.now.getTime() + DEFAULT_APPROVAL_TTL_MS),
    now: input.now,
  });
  return requested.ok ? requested.approvalId : null;
}

/**
 * The audit line of a read-only execution that ran: inside the jail or not, and why not, with the
 * grants it ran with, the engine and what the jail hid (`execution.jail`). Approved executions are
 * audited with their approval.
 */
export async function auditExecutionJail(
  db: Kysely<Database>,
  execution: { id: string; session_id: string | null; target: string },
  run: {
    jailed: boolean;
    note: string | null;
    grants: readonly JailGrant[];
    engine: string | null;
    hidden: readonly string[];
  },
): Promise<void> {
  await recordAudit(
    db,
    { by: "oikos", sessionId: execution.session_id },
    {
      action: "execution.jail",
      subject: execution.id,
      details: {
        target: execution.target,
        jailed: run.jailed,
        ...(run.note === null ? {} : { note: run.note }),
        ...(run.grants.length === 0 ? {} : { grants: run.grants }),
        ...(run.engine === null ? {} : { engine: run.engine }),
        ...(run.hidden.length === 0 ? {} : { hidden: run.hidden }),
      },
    },
  );
}
