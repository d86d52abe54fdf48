import type { Kysely } from "kysely";
import { OikosError } from "../base/errors.ts";
import { newApprovalId } from "./approvals.ts";
import { type Executor, recordAudit } from "./audit.ts";
import { approvalDecided, type DomainEvent } from "./domain-events.ts";
import { appendMessage } from "./messages.ts";
import {
  changeRouting,
  describeRouting,
  previewRouting,
  type RoutingPatch,
  type RoutingView,
} from "./routing-change.ts";
import type { Approval, Database, JsonObject } from "./schema.ts";

export type RoutingRequestResult =
  | { ok: true; approvalId: string; before: RoutingView; after: RoutingView }
  | { ok: false; reason: string; pending?: string };

/**
 * The agent's way to a routing change (`change_routing`): an approval with subject `routing` and
 * the change it would apply (old → new, as the card shows it). Nothing changes until an operator
 * approves it. One pending routing change per session.
 */
export async function requestRoutingChange(
  db: Kysely<Database>,
  input: {
    sessionId: string;
    slug: string;
    patch: RoutingPatch;
    reason: string;
    requestedBy: string;
    expiresAt: Date;
    now?: Date;
  },
): Promise<RoutingRequestResult> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (tx) => {
    const pending = await tx
      .selectFrom("approvals")
      .select("id")
      .where("session_id", "=", input.sessionId)
      .where("subject", "=", "routing")
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (pending)
      return {
        ok: false,
        reason: `routing change ${pending.id} is still waiting for an operator`,
        pending: pending.id,
      };
    const preview = await previewRouting(tx, input.slug, input.patch);
    if (!preview.ok) return preview;
    if (!preview.changed) return { ok: false, reason: `${input.slug} already routes that way` };
    const approvalId = newApprovalId();
    await tx
      .insertInto("approvals")
      .values({
        id: approvalId,
        session_id: input.sessionId,
        subject: "routing",
        execution_id: null,
        plan_generation: null,
        command_key: null,
        target: input.slug,
        risk: "config_mutation",
        required_phrase: null,
        decided_by: null,
        channel: null,
        decided_at: null,
        expires_at: input.expiresAt,
        created_at: now,
      })
      .execute();
    await tx
      .insertInto("routing_changes")
      .values({
        approval_id: approvalId,
        entity_slug: input.slug,
        patch: JSON.stringify(input.patch),
        before: JSON.stringify(preview.before),
        after: JSON.stringify(preview.after),
        reason: input.reason,
        requested_by: input.requestedBy,
      })
      .execute();
    await recordAudit(
      tx,
      { by: input.requestedBy, sessionId: input.sessionId },
      {
        action: "routing_change.requested",
        subject: input.slug,
        details: { approvalId, patch: input.patch },
      },
    );
    return { ok: true, approvalId, before: preview.before, after: preview.after };
  });
}

type RoutingFollowUp =
  | { kind: "enqueue"; queue: "agent-turn"; data: { sessionId: string; reason: "consent" } }
  | { kind: "publish"; event: DomainEvent };

export type RoutingDecisionResult =
  | { ok: true; changes: { what: string; subject: string }[]; followUps: RoutingFollowUp[] }
  | { ok: false; code: "already_decided" | "not_found" | "stale"; message: string };

/**
 * An operator's decision on a pending routing approval (store/consent.ts decideApproval hands it
 * here, in its transaction): approved applies the change as that operator (audited routing_changed);
 * either way the agent is told (an agent-turn) and the card refreshed.
 */
export async function decideRoutingApproval(
  tx: Executor,
  approval: Approval,
  input: { decision: "approved" | "denied"; by: string; via: string },
  now: Date,
): Promise<RoutingDecisionResult> {
  const change = await tx
    .selectFrom("routing_changes")
    .selectAll()
    .where("approval_id", "=", approval.id)
    .executeTakeFirst();
  if (!change)
    return { ok: false, code: "not_found", message: `Approval ${approval.id} has no routing change.` };
  if (input.decision === "approved") {
    // The card showed before → after; a patch applied to routing that changed since (another approved
    // change, discovery) would produce a route nobody was shown.
    const now_ = await previewRouting(tx, change.entity_slug, change.patch as RoutingPatch);
    const shown: unknown = typeof change.before === "string" ? JSON.parse(change.before) : change.before;
    if (!now_.ok || canonical(now_.before) !== canonical(shown))
      return {
        ok: false,
        code: "stale",
        message: `The routing of ${change.entity_slug} changed since this card was posted; nothing was applied. Ask the agent to request the change again (change_routing) so the card shows the current route.`,
      };
  }
  const decided = await tx
    .updateTable("approvals")
    .set({ status: input.decision, decided_by: input.by, channel: input.via, decided_at: now })
    .where("id", "=", approval.id)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .returning("id")
    .executeTakeFirst();
  if (!decided)
    return { ok: false, code: "already_decided", message: `Approval ${approval.id} was decided meanwhile.` };
  const context = { by: input.by, sessionId: approval.session_id };
  const changes = [{ what: `routing change ${approval.id} ${input.decision}`, subject: approval.id }];
  if (input.decision === "approved") {
    const applied = await changeRouting(tx, change.entity_slug, change.patch as RoutingPatch, context);
    if (!applied.ok)
      throw new OikosError(
        "routing_change_cannot_apply",
        `The approved routing change of ${change.entity_slug} cannot apply: ${applied.reason}. Nothing was changed; ask the agent for the change again.`,
      );
    await tx
      .updateTable("routing_changes")
      .set({ applied_at: now })
      .where("approval_id", "=", approval.id)
      .execute();
    changes.push({ what: `${change.entity_slug} re-routed`, subject: change.entity_slug });
  }
  await recordAudit(tx, context, {
    action: `approval.${input.decision}`,
    subject: change.entity_slug,
    details: { approvalId: approval.id, via: input.via, routing: change.after as JsonObject },
  });
  const sessionId = approval.session_id;
  const routing = describeRouting(change.after as unknown as RoutingView);
  await appendMessage(
    tx,
    {
      sessionId,
      role: "system",
      name: `decision:routing:${approval.id}`,
      author: "oikos",
      content:
        input.decision === "approved"
          ? `The operator approved the routing change of ${change.entity_slug}: it now routes ${routing}. Commands approved for the old routing will not run; run them again.`
          : `The operator denied the routing change of ${change.entity_slug} (${routing}); its routing is unchanged. Ask them what is right (ask_operator) before relying on it.`,
    },
    now,
  );
  return {
    ok: true,
    changes,
    followUps: [
      {
        kind: "publish",
        event: approvalDecided({
          sessionId,
          approvalId: approval.id,
          decision: input.decision,
          by: input.by,
          via: input.via,
        }),
      },
      { kind: "enqueue", queue: "agent-turn", data: { sessionId, reason: "consent" } },
    ],
  };
}

/** JSON with keys sorted: jsonb does not keep the key order the value was written with. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The routing change an approval of subject `routing` decides. */
export async function routingChangeOfApproval(db: Executor, approvalId: string) {
  return db
    .selectFrom("routing_changes")
    .selectAll()
    .where("approval_id", "=", approvalId)
    .executeTakeFirst();
}
