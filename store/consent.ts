import type { Kysely } from "kysely";
import { NO_QUORUM, type Quorum } from "../policy/quorum.ts";
import { grantDurationMs, NOT_GRANTABLE_WORDS, type NotGrantable } from "../policy/standing-grant.ts";
import { sameTypedPhrase } from "../policy/typed-phrase.ts";
import { castVote } from "./approval-votes.ts";
import { cancelApprovalOfExecution, decideApprovalRow, getApproval } from "./approvals.ts";
import { type Executor, recordAudit } from "./audit.ts";
import {
  approvalDecided,
  approvalRequested,
  type DomainEvent,
  executionFinished,
  executionQueued,
  planDecided,
} from "./domain-events.ts";
import { transitionExecution } from "./executions.ts";
import { decideRoutingApproval } from "./routing-approval.ts";
import type { Database } from "./schema.ts";
import { createStandingGrant } from "./standing-grants.ts";
import { DEFAULT_ASSENT_WINDOW_MS, DESTRUCTIVE_WINDOW_MS, openWindow } from "./windows.ts";

/**
 * What an operator's decision changes. The chat bot calls these (it never touches approvals,
 * plans or windows itself), then carries out the returned follow-ups: jobs to enqueue and events to
 * publish (bot/core/follow-ups.ts does both). store/ imports nothing above it, so
 * follow-ups are plain data (events built with store/domain-events.ts).
 */
export type ConsentVia = "reaction" | "button" | "phrase" | "slash" | "api";

export type ConsentFollowUp =
  | { kind: "enqueue"; queue: "execute"; data: { executionId: string }; jobId: string }
  | { kind: "enqueue"; queue: "agent-turn"; data: { sessionId: string; reason: "consent" } }
  | { kind: "publish"; event: DomainEvent };

export interface ConsentChange {
  /** e.g. `plan 3 approved`, `execution ex-… queued`, `assent window open until …`. */
  what: string;
  subject: string;
}

export type ConsentResult =
  | { ok: true; changes: ConsentChange[]; followUps: ConsentFollowUp[] }
  | { ok: false; code: ConsentRefusalCode; message: string };

export type ConsentRefusalCode =
  | "not_found"
  | "other_session"
  | "already_decided"
  | "expired"
  | "typed_confirmation_required"
  /** what the card showed no longer holds (a routing change whose entity was re-routed since) */
  | "stale"
  /** ♾️ on a command no standing grant may cover (destructive, unreadable…), or asked outside chat */
  | "not_grantable"
  /** approvals.rules names who may approve this, and it is not this person */
  | "not_an_approver"
  /** this person already approved it; the quorum needs someone else */
  | "already_voted";

export interface PlanDecision {
  sessionId: string;
  generation: number;
  by: string;
  via: ConsentVia;
  now?: Date;
  /** How long the assent window stays open. Default 2 h. */
  assentWindowMs?: number;
  /** The pending config change needs a quorum (approvals.rules): the plan's approval does not approve it. */
  leavePendingApproval?: boolean;
}

/**
 * Approves a proposed plan: plans.status proposed → approved (conditional), opens the session's
 * assent window (config_mutation only, never destructive), and approves the session's pending
 * config_mutation execution approval if there is one, so one plan never needs two cards.
 */
export async function approvePlan(db: Kysely<Database>, input: PlanDecision): Promise<ConsentResult> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (tx) => {
    const decided = await decidePlanRow(tx, input, "approved", now);
    if (!decided.ok) return decided;
    const expiresAt = new Date(now.getTime() + (input.assentWindowMs ?? DEFAULT_ASSENT_WINDOW_MS));
    await openWindow(
      tx,
      { sessionId: input.sessionId, kind: "assent", openedBy: input.by, channel: input.via, expiresAt },
      now,
    );
    const changes: ConsentChange[] = [
      { what: `plan ${input.generation} approved`, subject: `plan:${input.generation}` },
      { what: `assent window open until ${expiresAt.toISOString()}`, subject: "window:assent" },
    ];
    const followUps: ConsentFollowUp[] = [planDecidedEvent(input, "approved")];
    const pending = await tx
      .selectFrom("approvals")
      .selectAll()
      .where("session_id", "=", input.sessionId)
      .where("subject", "=", "execution")
      .where("status", "=", "pending")
      .where("risk", "=", "config_mutation")
      .executeTakeFirst();
    if (pending?.execution_id && !input.leavePendingApproval) {
      const approved = await approveExecution(tx, pending.id, pending.execution_id, input, now);
      if (approved.ok) {
        changes.push(...approved.changes);
        followUps.push(...approved.followUps);
      }
    }
    followUps.push({
      kind: "enqueue",
      queue: "agent-turn",
      data: { sessionId: input.sessionId, reason: "consent" },
    });
    await recordAudit(
      tx,
      { by: input.by, sessionId: input.sessionId },
      {
        action: "plan.approved",
        subject: `plan:${input.generation}`,
        details: { via: input.via, assentUntil: expiresAt.toISOString() },
      },
    );
    return { ok: true as const, changes, followUps };
  });
}

export async function denyPlan(db: Kysely<Database>, input: PlanDecision): Promise<ConsentResult> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (tx) => {
    const decided = await decidePlanRow(tx, input, "denied", now);
    if (!decided.ok) return decided;
    await recordAudit(
      tx,
      { by: input.by, sessionId: input.sessionId },
      {
        action: "plan.denied",
        subject: `plan:${input.generation}`,
        details: { via: input.via },
      },
    );
    return {
      ok: true as const,
      changes: [{ what: `plan ${input.generation} denied`, subject: `plan:${input.generation}` }],
      followUps: [
        planDecidedEvent(input, "denied"),
        { kind: "enqueue", queue: "agent-turn", data: { sessionId: input.sessionId, reason: "consent" } },
      ],
    };
  });
}

export interface ApprovalDecision {
  approvalId: string;
  /** The session of the chat thread the decision came from: an approval of another session is refused. */
  sessionId: string;
  decision: "approved" | "denied";
  by: string;
  via: ConsentVia;
  /** Required to approve a destructive execution: the operator's typed words. */
  typedPhrase?: string;
  /**
   * ♾️ (issue #32): approve and grant the same command a standing grant, for `days` (null: the
   * configured `defaultDays`; policy/standing-grant.ts bounds both). Chat only: never via `api`.
   */
  grant?: { days: number | null; defaultDays?: number };
  /**
   * What approvals.rules ask of this approval (policy/quorum.ts), and who asked for the task:
   * approving it is then one person's vote until enough distinct people approved.
   */
  quorum?: { quorum: Quorum; requester: string | null };
  now?: Date;
}

/**
 * Decides one pending execution approval. Refuses an unknown, other-session, already decided or
 * expired approval, and a destructive one approved without its typed phrase. Approving queues the
 * execution (and, for destructive, opens the 15-minute window for that session + target).
 */
export async function decideApproval(db: Kysely<Database>, input: ApprovalDecision): Promise<ConsentResult> {
  const now = input.now ?? new Date();
  return db.transaction().execute(async (tx): Promise<ConsentResult> => {
    const approval = await getApproval(tx, input.approvalId);
    if (!approval) return consentRefusal("not_found", `There is no approval ${input.approvalId}.`);
    if (approval.session_id !== input.sessionId) {
      return consentRefusal(
        "other_session",
        `Approval ${approval.id} belongs to another session; decide it in that thread.`,
      );
    }
    // Expired (by the sweep or at its time) is not "decided": the person is told it ran out, and what to do.
    if (approval.status === "expired") return expiredRefusal(approval.id, approval.expires_at);
    if (approval.status !== "pending") {
      return consentRefusal(
        "already_decided",
        `Approval ${approval.id} was already ${approval.status}${approval.decided_by ? ` by ${approval.decided_by}` : ""}.`,
      );
    }
    if (approval.expires_at.getTime() <= now.getTime()) {
      await tx
        .updateTable("approvals")
        .set({ status: "expired", decided_at: now, decided_by: "sweep", channel: "sweep" })
        .where("id", "=", approval.id)
        .where("status", "=", "pending")
        .execute();
      if (approval.execution_id) {
        await transitionExecution(tx, approval.execution_id, {
          from: "pending_approval",
          to: "expired",
          reason: "approval expired",
          now,
        });
      }
      return expiredRefusal(approval.id, approval.expires_at);
    }
    if (
      input.decision === "approved" &&
      approval.required_phrase &&
      !sameTypedPhrase(input.typedPhrase, approval.required_phrase)
    ) {
      // ♾️ (or "allow always") on a typed-phrase card: no grant, and the operator is told why.
      const notGranted = input.grant ? `Not granted: ${NOT_GRANTABLE_WORDS[typedWhy(approval)]}. ` : "";
      return consentRefusal(
        "typed_confirmation_required",
        `${notGranted}This is destructive: type exactly \`${approval.required_phrase}\` to approve it (a reaction or button is not enough).`,
      );
    }
    if (input.decision === "approved" && input.grant) {
      const why =
        input.via === "api"
          ? "a standing grant is given only by an operator in chat"
          : approval.subject !== "execution" || !approval.grant_basis
            ? "this command cannot get a standing grant (destructive, unreadable, or touching oikos itself): each run asks"
            : null;
      if (why)
        return consentRefusal(
          "not_grantable",
          `Not granted: ${why}. Nothing was approved; ✅ approves this run only.`,
        );
    }
    if (approval.subject === "routing") return decideRoutingApproval(tx, approval, input, now);
    if (!approval.execution_id)
      return consentRefusal("not_found", `Approval ${approval.id} is not bound to an execution.`);
    if (input.decision === "approved" && needsVotes(input.quorum?.quorum)) {
      const vote = await castVote(
        tx,
        approval,
        {
          voter: input.by,
          via: input.via,
          quorum: input.quorum?.quorum ?? NO_QUORUM,
          requester: input.quorum?.requester ?? null,
        },
        now,
      );
      if (vote.kind === "refused")
        return consentRefusal(
          vote.why,
          vote.why === "already_voted"
            ? `You already approved ${approval.id}; it needs someone else's approval too: ask another operator who may approve it (the card says who).`
            : `You may not approve ${approval.id}: approvals.rules leaves it to ${input.quorum?.quorum.approvers?.join(", ") || "others"}${groupsNamed(input.quorum?.quorum)}; ask one of them.`,
        );
      if (vote.kind === "waiting") {
        return {
          ok: true,
          changes: [
            { what: `approval ${approval.id}: ${vote.have} of ${vote.need} approvals`, subject: approval.id },
          ],
          // the card is drawn again from the store: it shows who approved and who it waits for
          followUps: [
            {
              kind: "publish",
              event: approvalRequested({
                sessionId: approval.session_id,
                approvalId: approval.id,
                executionId: approval.execution_id,
              }),
            },
          ],
        };
      }
    }
    if (input.decision === "approved") {
      const approved = await approveExecution(tx, approval.id, approval.execution_id, input, now);
      if (!approved.ok || !input.grant || !approval.grant_basis) return approved;
      const session = await tx
        .selectFrom("sessions")
        .select(["platform", "room"])
        .where("id", "=", approval.session_id)
        .executeTakeFirstOrThrow();
      const expiresAt = new Date(now.getTime() + grantDurationMs(input.grant.days, input.grant.defaultDays));
      const grant = await createStandingGrant(
        tx,
        {
          basis: approval.grant_basis,
          grantedBy: input.by,
          grantedVia: input.via,
          approvalId: approval.id,
          sessionId: approval.session_id,
          platform: session.platform,
          room: session.room,
          expiresAt,
        },
        now,
      );
      approved.changes.push({
        what: `standing grant ${grant.id} for this command on ${grant.target} until ${expiresAt.toISOString()}`,
        subject: grant.id,
      });
      return approved;
    }
    const decided = await decideApprovalRow(
      tx,
      approval.id,
      "denied",
      { by: input.by, channel: input.via },
      now,
    );
    if (!decided) return consentRefusal("already_decided", `Approval ${approval.id} was decided meanwhile.`);
    const execution = await transitionExecution(tx, approval.execution_id, {
      from: "pending_approval",
      to: "denied",
      reason: `denied by ${input.by}`,
      now,
    });
    await recordAudit(
      tx,
      { by: input.by, sessionId: approval.session_id },
      {
        action: "approval.denied",
        subject: approval.execution_id,
        details: { approvalId: approval.id, via: input.via },
      },
    );
    const sessionId = approval.session_id;
    return {
      ok: true,
      changes: [
        { what: `approval ${approval.id} denied`, subject: approval.id },
        ...(execution ? [{ what: `execution ${execution.id} denied`, subject: execution.id }] : []),
      ],
      followUps: [
        {
          kind: "publish",
          event: approvalDecided({
            sessionId,
            approvalId: approval.id,
            decision: "denied",
            by: input.by,
            via: input.via,
          }),
        },
        ...(execution ? [{ kind: "publish" as const, event: executionFinished(execution, "denied") }] : []),
      ],
    };
  });
}

/** An approval whose time ran out: nothing ran, and the person is told how to get it asked again. */
function expiredRefusal(approvalId: string, expiredAt: Date): ConsentResult {
  return consentRefusal(
    "expired",
    `This approval (${approvalId}) expired at ${expiredAt.toISOString()}, so your decision was not applied and ` +
      'nothing ran. If it is still needed, say so in this thread (e.g. "still needed, ask again") and the ' +
      "agent will ask for a new approval.",
  );
}

async function approveExecution(
  tx: Executor,
  approvalId: string,
  executionId: string,
  input: { by: string; via: ConsentVia },
  now: Date,
): Promise<ConsentResult> {
  const decided = await decideApprovalRow(
    tx,
    approvalId,
    "approved",
    { by: input.by, channel: input.via },
    now,
  );
  if (!decided) return consentRefusal("already_decided", `Approval ${approvalId} was decided meanwhile.`);
  const approved = await transitionExecution(tx, executionId, {
    from: "pending_approval",
    to: "approved",
    reason: `approved by ${input.by}`,
    now,
  });
  const queued = approved
    ? await transitionExecution(tx, executionId, {
        from: "approved",
        to: "queued",
        now,
        set: { deadline_at: new Date(now.getTime() + approved.timeout_ms + QUEUE_WAIT_MS) },
      })
    : undefined;
  const changes: ConsentChange[] = [{ what: `approval ${approvalId} approved`, subject: approvalId }];
  const sessionId = decided.session_id;
  const followUps: ConsentFollowUp[] = [
    {
      kind: "publish",
      event: approvalDecided({ sessionId, approvalId, decision: "approved", by: input.by, via: input.via }),
    },
  ];
  if (queued) {
    changes.push({ what: `execution ${executionId} queued`, subject: executionId });
    followUps.push(
      { kind: "enqueue", queue: "execute", data: { executionId }, jobId: `execute:${executionId}` },
      { kind: "publish", event: executionQueued(queued) },
    );
    if (queued.risk === "destructive") {
      const expiresAt = new Date(now.getTime() + DESTRUCTIVE_WINDOW_MS);
      await openWindow(
        tx,
        {
          sessionId,
          kind: "destructive",
          target: queued.target,
          openedBy: input.by,
          channel: input.via,
          expiresAt,
        },
        now,
      );
      changes.push({
        what: `destructive window for ${queued.target} open until ${expiresAt.toISOString()}`,
        subject: `window:destructive:${queued.target}`,
      });
    }
  }
  await recordAudit(
    tx,
    { by: input.by, sessionId },
    {
      action: "approval.approved",
      subject: executionId,
      details: { approvalId, via: input.via },
    },
  );
  return { ok: true, changes, followUps };
}

/** How long an approved execution may wait in the queue before the sweep expires it. */
export const QUEUE_WAIT_MS = 10 * 60_000;

async function decidePlanRow(
  tx: Executor,
  input: PlanDecision,
  decision: "approved" | "denied",
  now: Date,
): Promise<{ ok: true } | { ok: false; code: ConsentRefusalCode; message: string }> {
  const plan = await tx
    .selectFrom("plans")
    .selectAll()
    .where("session_id", "=", input.sessionId)
    .where("generation", "=", input.generation)
    .executeTakeFirst();
  if (!plan)
    return consentRefusal("not_found", `Session ${input.sessionId} has no plan ${input.generation}.`);
  const result = await tx
    .updateTable("plans")
    .set({ status: decision, decided_by: input.by, decided_via: input.via, decided_at: now })
    .where("session_id", "=", input.sessionId)
    .where("generation", "=", input.generation)
    .where("status", "=", "proposed")
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    return consentRefusal(
      "already_decided",
      `Plan ${input.generation} is ${plan.status}, not awaiting a decision.`,
    );
  }
  return { ok: true };
}

function planDecidedEvent(input: PlanDecision, decision: "approved" | "denied"): ConsentFollowUp {
  return {
    kind: "publish",
    event: planDecided({
      sessionId: input.sessionId,
      generation: input.generation,
      decision,
      by: input.by,
      via: input.via,
    }),
  };
}

/** Cancels a not-yet-running execution and its pending approval (cancel_execution, complete_task cascade). */
export async function cancelPendingExecution(
  db: Kysely<Database>,
  executionId: string,
  by: string,
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const cancelled = await transitionExecution(tx, executionId, {
      from: ["pending_approval", "approved", "queued"],
      to: "cancelled",
      reason: `cancelled by ${by}`,
      now,
    });
    if (!cancelled) return false;
    await cancelApprovalOfExecution(tx, executionId, by, now);
    return true;
  });
}

/** " (members of: power level ≥ 50 in this room)" where the rules name approver groups. */
function groupsNamed(quorum: Quorum | undefined): string {
  return quorum?.groups?.length ? ` (members of: ${quorum.groups.join("; ")})` : "";
}

/** Why an approval that asks for a typed phrase can get no standing grant, in policy's words. */
function typedWhy(approval: { unreadable: string | null; risk: string | null }): NotGrantable {
  if (approval.unreadable !== null) return "unreadable";
  // A phrase on a change below destructive: the run gate found it disrupts oikos itself.
  return approval.risk === "destructive" ? "destructive" : "affects_self";
}

/** A quorum other than one operator's approval asks for votes. */
function needsVotes(quorum: Quorum | undefined): quorum is Quorum {
  return (
    quorum !== undefined && (quorum.required > 1 || quorum.separateRequester || quorum.approvers !== null)
  );
}

function consentRefusal(
  code: ConsentRefusalCode,
  message: string,
): { ok: false; code: ConsentRefusalCode; message: string } {
  return { ok: false, code, message };
}
