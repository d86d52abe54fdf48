import type { Kysely } from "kysely";
import type { PlanPreview } from "../policy/preview/types.ts";
import { createExecutionApproval, getApproval } from "./approvals.ts";
import { recordAudit } from "./audit.ts";
import type { ConsentResult, ConsentVia } from "./consent.ts";
import { approvalDecided, approvalRequested } from "./domain-events.ts";
import { reattachApproval } from "./executions.ts";
import { PREVIEW_CHANNEL, recordPreview } from "./previews.ts";
import type { Database } from "./schema.ts";

export { PREVIEW_CHANNEL };

/** What an operator's approval meets at the preview gate: it goes through, or they are asked again (nothing ran). */
export type PreviewGateOutcome =
  | { kind: "proceed" }
  | { kind: "asked_again"; message: string; result: ConsentResult };

export interface AskAgain {
  approvalId: string;
  /** The operator whose approval did not go through. */
  by: string;
  via: ConsentVia;
  /** The recomputed preview: recorded as what the new card shows. */
  preview: PlanPreview;
  /** The gate's decision, recorded with the recheck (`ask_again:changed` …). */
  decision: string;
  ttlMs: number;
  now: Date;
}

/**
 * The preview changed between the card and the approval (policy/preview/approval-gate.ts): the
 * operator's approval does not go through. In one transaction: the approval is cancelled (channel
 * `preview`, by the operator whose gesture it was), a new approval for the same execution is
 * created with the new preview as what its card shows, and the execution points at it. Nothing is
 * queued. The follow-ups redraw the old card and post the new one.
 */
export async function askAgainWithPreview(db: Kysely<Database>, input: AskAgain): Promise<ConsentResult> {
  return db.transaction().execute(async (tx): Promise<ConsentResult> => {
    const old = await getApproval(tx, input.approvalId);
    if (!old?.execution_id || old.subject !== "execution")
      return { ok: false, code: "not_found", message: `There is no execution approval ${input.approvalId}.` };
    const closed = await tx
      .updateTable("approvals")
      .set({ status: "cancelled", decided_by: input.by, channel: PREVIEW_CHANNEL, decided_at: input.now })
      .where("id", "=", old.id)
      .where("status", "=", "pending")
      .where("expires_at", ">", input.now)
      .returningAll()
      .executeTakeFirst();
    if (!closed)
      return { ok: false, code: "already_decided", message: `Approval ${old.id} was decided meanwhile.` };
    await recordPreview(tx, {
      sessionId: old.session_id,
      executionId: old.execution_id,
      approvalId: old.id,
      purpose: "recheck",
      preview: input.preview,
      decision: input.decision,
    });
    const expiresAt = new Date(input.now.getTime() + input.ttlMs);
    const created = await createExecutionApproval(
      tx,
      {
        sessionId: old.session_id,
        executionId: old.execution_id,
        commandKey: old.command_key ?? "",
        target: old.target ?? "",
        risk: old.risk ?? "config_mutation",
        requiredPhrase: old.required_phrase,
        expiresAt,
      },
      input.now,
    );
    // The old one was the session's one pending execution approval and is cancelled in this transaction.
    if (!created.created)
      throw new Error(`approval ${old.id} was cancelled but a new one could not be created`);
    const fresh = created.approval;
    await reattachApproval(tx, old.execution_id, fresh.id, expiresAt);
    await recordPreview(tx, {
      sessionId: old.session_id,
      executionId: old.execution_id,
      approvalId: fresh.id,
      purpose: "shown",
      preview: input.preview,
    });
    await recordAudit(
      tx,
      { by: input.by, sessionId: old.session_id },
      {
        action: "approval.asked_again",
        subject: old.execution_id,
        details: { approvalId: old.id, newApprovalId: fresh.id, via: input.via, decision: input.decision },
      },
    );
    const sessionId = old.session_id;
    return {
      ok: true,
      changes: [
        { what: `approval ${old.id} not applied: ${input.decision}`, subject: old.id },
        { what: `approval ${fresh.id} asked with the new preview`, subject: fresh.id },
      ],
      followUps: [
        {
          kind: "publish",
          event: approvalDecided({
            sessionId,
            approvalId: old.id,
            decision: "cancelled",
            by: input.by,
            via: PREVIEW_CHANNEL,
          }),
        },
        {
          kind: "publish",
          event: approvalRequested({ sessionId, approvalId: fresh.id, executionId: old.execution_id }),
        },
      ],
    };
  });
}
