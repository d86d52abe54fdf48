import type { Kysely } from "kysely";
import { getApproval } from "./approvals.ts";
import { type Executor, recordAudit } from "./audit.ts";
import type { ConsentFollowUp, ConsentResult, ConsentVia } from "./consent.ts";
import { approvalDecided, executionFinished, planDecided } from "./domain-events.ts";
import { transitionExecution } from "./executions.ts";
import type { ChangeRequest, Database } from "./schema.ts";
import { closeWindows } from "./windows.ts";

export type { ChangeRequest } from "./schema.ts";

/**
 * "Request changes" (issue #32): an operator sends a plan or an approval back to the agent with
 * what to do instead. What was sent back is decided (denied) and never runs — a plan that was
 * approved loses its assent window — and carries the request (who, how, the reason, when), which
 * its card shows and the agent is given with the plan it refers to, to propose a revised one.
 */
export interface ChangeRequestInput {
  sessionId: string;
  by: string;
  via: ConsentVia;
  reason: string;
  now?: Date;
}

function changeRequest(input: ChangeRequestInput, now: Date): ChangeRequest {
  return { by: input.by, via: input.via, reason: input.reason, at: now.toISOString() };
}

function wakeAgent(sessionId: string): ConsentFollowUp {
  return { kind: "enqueue", queue: "agent-turn", data: { sessionId, reason: "consent" } };
}

/** Sends a proposed plan back: proposed → denied with the request, one conditional UPDATE. */
export async function requestPlanChanges(
  db: Kysely<Database>,
  input: ChangeRequestInput & { generation: number },
): Promise<ConsentResult> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (tx): Promise<ConsentResult> => {
    const request = changeRequest(input, now);
    const changed = await tx
      .updateTable("plans")
      .set({
        status: "denied",
        decided_by: input.by,
        decided_via: input.via,
        decided_at: now,
        changes_requested: JSON.stringify(request),
      })
      .where("session_id", "=", input.sessionId)
      .where("generation", "=", input.generation)
      .where("status", "=", "proposed")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) {
      return {
        ok: false,
        code: "already_decided",
        message: `Plan ${input.generation} is not waiting for a decision any more.`,
      };
    }
    await recordAudit(
      tx,
      { by: input.by, sessionId: input.sessionId },
      {
        action: "plan.changes_requested",
        subject: `plan:${input.generation}`,
        details: { via: input.via, reason: input.reason },
      },
    );
    return {
      ok: true,
      changes: [
        { what: `changes requested on plan ${input.generation}`, subject: `plan:${input.generation}` },
      ],
      followUps: [
        {
          kind: "publish",
          event: planDecided({
            sessionId: input.sessionId,
            generation: input.generation,
            decision: "denied",
            by: input.by,
            via: input.via,
          }),
        },
        wakeAgent(input.sessionId),
      ],
    };
  });
}

/**
 * Sends a pending execution approval back: the approval and its execution are denied with the
 * request (the execution's reason says it, so the agent's result does), and the session's approved
 * plan, if any, is sent back with it: its assent window closes and the agent must propose again.
 */
export async function requestExecutionChanges(
  db: Kysely<Database>,
  input: ChangeRequestInput & { approvalId: string },
): Promise<ConsentResult> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (tx): Promise<ConsentResult> => {
    const approval = await getApproval(tx, input.approvalId);
    if (!approval || approval.session_id !== input.sessionId || approval.subject !== "execution")
      return { ok: false, code: "not_found", message: `There is no approval ${input.approvalId} here.` };
    const request = changeRequest(input, now);
    const decided = await tx
      .updateTable("approvals")
      .set({
        status: "denied",
        decided_by: input.by,
        channel: input.via,
        decided_at: now,
        changes_requested: JSON.stringify(request),
      })
      .where("id", "=", approval.id)
      .where("status", "=", "pending")
      .where("expires_at", ">", now)
      .returningAll()
      .executeTakeFirst();
    if (!decided)
      return {
        ok: false,
        code: "already_decided",
        message: `Approval ${approval.id} is not waiting for a decision any more.`,
      };
    const followUps: ConsentFollowUp[] = [
      {
        kind: "publish",
        event: approvalDecided({
          sessionId: input.sessionId,
          approvalId: approval.id,
          decision: "denied",
          by: input.by,
          via: input.via,
        }),
      },
    ];
    const execution = approval.execution_id
      ? await transitionExecution(tx, approval.execution_id, {
          from: "pending_approval",
          to: "denied",
          reason: `changes requested by ${input.by}: ${input.reason}`,
          now,
        })
      : undefined;
    if (execution) followUps.push({ kind: "publish", event: executionFinished(execution, "denied") });
    const plan = await sendBackApprovedPlan(tx, input.sessionId, request, now);
    if (plan !== null)
      followUps.push({
        kind: "publish",
        event: planDecided({
          sessionId: input.sessionId,
          generation: plan,
          decision: "denied",
          by: input.by,
          via: input.via,
        }),
      });
    await recordAudit(
      tx,
      { by: input.by, sessionId: input.sessionId },
      {
        action: "approval.changes_requested",
        subject: approval.execution_id ?? approval.id,
        details: { approvalId: approval.id, via: input.via, reason: input.reason, plan },
      },
    );
    followUps.push(wakeAgent(input.sessionId));
    return {
      ok: true,
      changes: [{ what: `changes requested on approval ${approval.id}`, subject: approval.id }],
      followUps,
    };
  });
}

/** The session's current approved plan, sent back with the request; its generation, or null. */
async function sendBackApprovedPlan(
  tx: Executor,
  sessionId: string,
  request: ChangeRequest,
  now: Date,
): Promise<number | null> {
  const session = await tx
    .selectFrom("sessions")
    .select("plan_generation")
    .where("id", "=", sessionId)
    .executeTakeFirst();
  if (!session || session.plan_generation <= 0) return null;
  const sent = await tx
    .updateTable("plans")
    .set({
      status: "denied",
      decided_by: request.by,
      decided_via: request.via,
      decided_at: now,
      changes_requested: JSON.stringify(request),
    })
    .where("session_id", "=", sessionId)
    .where("generation", "=", session.plan_generation)
    .where("status", "in", ["approved", "proposed"])
    .executeTakeFirst();
  if (Number(sent.numUpdatedRows) === 0) return null;
  await closeWindows(tx, sessionId, "assent");
  return session.plan_generation;
}
