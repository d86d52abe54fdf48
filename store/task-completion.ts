import type { Kysely } from "kysely";
import { type Refusal, type RefusalCode, refusal } from "../policy/refusals.ts";
import { cancelApprovalOfExecution } from "./approvals.ts";
import { approvalDecided, type DomainEvent, taskCompleted } from "./domain-events.ts";
import { OPEN_EXECUTION_STATUSES, transitionExecution } from "./executions.ts";
import { recordFeedback } from "./feedback.ts";
import { closeActiveGoal, goalSince } from "./goals.ts";
import { planAdherence } from "./plans.ts";
import type { Database } from "./schema.ts";
import { writeSessionKnowledge } from "./session-knowledge.ts";
import { closeSession } from "./session-lifecycle.ts";
import { OUTCOMES, type Outcome } from "./statuses.ts";
import { closeWindows } from "./windows.ts";

export { OUTCOMES, type Outcome } from "./statuses.ts";

export interface TaskCompletionInput {
  outcome: string;
  summary: string;
  verification?: string;
  root_cause?: string;
  left_open?: string;
}

/** An outcome outside the enum is never read as success. */
export function normaliseOutcome(value: string): Outcome {
  const v = value.trim().toLowerCase();
  return (OUTCOMES as readonly string[]).includes(v) ? (v as Outcome) : "partial";
}

export type TaskCompletionRefusalCode = Extract<
  RefusalCode,
  | "unknown_session"
  | "already_complete"
  | "reopened_without_goal"
  | "open_executions"
  | "no_evidence"
  | "no_writeback"
  | "completed_meanwhile"
>;

export type TaskCompletionResult =
  | {
      ok: true;
      outcome: Outcome;
      /** Set when the requested outcome was not one of OUTCOMES and was recorded as partial. */
      outcomeNote: string | null;
      planAdherence: { done: number; total: number };
      cancelledApprovals: string[];
      /** Slug of the automatic knowledge entry, or null when it could not be written. */
      knowledge: string | null;
      /** What the caller publishes once the completion is committed. */
      events: DomainEvent[];
    }
  | { ok: false; refusal: Refusal<TaskCompletionRefusalCode> };

export interface TaskCompletionOptions {
  now?: Date;
  logger?: { error(object: object, message?: string): void };
}

function refused(
  code: TaskCompletionRefusalCode,
  reason: string,
  nextStep?: string,
  detail?: Record<string, unknown>,
): TaskCompletionResult {
  return { ok: false, refusal: refusal(code, reason, nextStep, detail) };
}

/**
 * Closes a session's task: the gates (no second completion, no success with open executions or
 * without write-back after live discovery), then the cascade in one transaction (session closed,
 * goal closed, queued/pending executions and their approvals cancelled, windows closed, feedback
 * recorded), then the automatic knowledge entry. Refusals (policy/refusals.ts codes) name the next
 * correct action; the complete_task tool returns them to the model, the idle sweep logs them.
 */
export async function completeSessionTask(
  db: Kysely<Database>,
  sessionId: string,
  input: TaskCompletionInput,
  options: TaskCompletionOptions = {},
): Promise<TaskCompletionResult> {
  const at = options.now ?? new Date();
  const session = await db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirst();
  if (!session) {
    return refused(
      "unknown_session",
      `complete_task: session ${sessionId} does not exist.`,
      "Tell the operator.",
    );
  }
  if (session.status === "done" || session.status === "failed") {
    return refused(
      "already_complete",
      `complete_task refused: the task is already complete (outcome ${session.outcome ?? "unknown"}).`,
    );
  }
  if (
    session.requires_replan &&
    session.reopened_at &&
    !(await goalSince(db, sessionId, session.reopened_at))
  ) {
    return refused(
      "reopened_without_goal",
      "complete_task refused: the previous task of this session is already complete; the operator's new message " +
        "reopened the session.",
      "Do not complete it again. If they asked for something new, call set_goal and propose_plan; if not, just answer them.",
    );
  }
  const outcome = normaliseOutcome(input.outcome);
  const open = await db
    .selectFrom("executions")
    .select(["id", "status", "target", "command"])
    .where("session_id", "=", sessionId)
    .where("status", "in", [...OPEN_EXECUTION_STATUSES])
    .execute();
  if (outcome === "success" && open.length > 0) {
    return refused(
      "open_executions",
      `complete_task(success) refused: ${open.length} execution(s) of this session are still open ` +
        `(${open.map((e) => `${e.id} ${e.status} on ${e.target}`).join("; ")}).`,
      undefined,
      { open: open.map((e) => ({ id: e.id, status: e.status })) },
    );
  }
  if (outcome === "success") {
    const missing = await missingEvidence(db, sessionId, session.plan_generation);
    if (missing) return missing;
  }
  const discovered =
    session.live_discovery ||
    (await db
      .selectFrom("executions")
      .select("id")
      .where("session_id", "=", sessionId)
      .where("status", "=", "completed")
      .executeTakeFirst()) !== undefined;
  if (outcome === "success" && discovered && !session.entity_writeback) {
    return refused(
      "no_writeback",
      "complete_task(success) refused: this task ran commands against live targets but wrote nothing back.",
    );
  }
  const adherence = await planAdherence(db, sessionId);
  const cancelled = await db.transaction().execute(async (tx) => {
    const closed = await closeSession(
      tx,
      sessionId,
      {
        outcome,
        summary: input.summary,
        verification: input.verification ?? null,
        leftOpen: input.left_open ?? null,
      },
      at,
    );
    if (!closed) return null;
    await closeActiveGoal(tx, sessionId, outcome === "failure" ? "failed" : "done", input.summary, at);
    const approvals: string[] = [];
    for (const execution of open.filter((e) => e.status !== "running")) {
      const cancelledExecution = await transitionExecution(tx, execution.id, {
        from: ["pending_approval", "approved", "queued"],
        to: "cancelled",
        reason: "task completed",
        now: at,
      });
      if (cancelledExecution) {
        const approval = await cancelApprovalOfExecution(tx, execution.id, "complete_task", at);
        if (approval) approvals.push(approval.id);
      }
    }
    const rest = await tx
      .updateTable("approvals")
      .set({ status: "cancelled", decided_by: "complete_task", channel: "system", decided_at: at })
      .where("session_id", "=", sessionId)
      .where("status", "=", "pending")
      .returning("id")
      .execute();
    approvals.push(...rest.map((r) => r.id));
    await closeWindows(tx, sessionId);
    await recordFeedback(
      tx,
      {
        sessionId,
        outcome,
        planAdherence: adherence.ratio,
        rootCause: input.root_cause ?? null,
        notes: input.summary,
      },
      at,
    );
    return approvals;
  });
  if (cancelled === null) {
    return refused("completed_meanwhile", "complete_task refused: the task was completed meanwhile.");
  }
  const knowledge = await writeSessionKnowledge(
    db,
    sessionId,
    { ...input, goal: session.goal ?? "(no goal recorded)", outcome, at },
    options.logger,
  );
  const events: DomainEvent[] = [
    ...cancelled.map((approvalId) =>
      approvalDecided({ sessionId, approvalId, decision: "cancelled", by: "oikos", via: "complete_task" }),
    ),
    taskCompleted({ sessionId, outcome }),
  ];
  return {
    ok: true,
    outcome,
    outcomeNote:
      outcome !== input.outcome
        ? `"${input.outcome}" is not one of ${OUTCOMES.join(", ")}; recorded as partial`
        : null,
    planAdherence: { done: adherence.done, total: adherence.total },
    cancelledApprovals: cancelled,
    knowledge,
    events,
  };
}

/**
 * Success needs evidence: when the current plan has steps that change something (risk other than
 * read_only, or unstated), at least one mutating execution of that plan must have completed. All of
 * them expired, cancelled, denied or failed means nothing changed, whatever the model believes.
 */
async function missingEvidence(
  db: Kysely<Database>,
  sessionId: string,
  generation: number,
): Promise<TaskCompletionResult | null> {
  const steps = await db
    .selectFrom("plan_steps")
    .select(["seq", "title", "risk"])
    .where("session_id", "=", sessionId)
    .where("generation", "=", generation)
    .where("status", "!=", "replaced")
    .where((eb) => eb.or([eb("risk", "is", null), eb("risk", "!=", "read_only")]))
    .execute();
  if (steps.length === 0) return null;
  const executions = await db
    .selectFrom("executions")
    .select(["id", "status", "target", "step_seq"])
    .where("session_id", "=", sessionId)
    .where("plan_generation", "=", generation)
    .where("risk", "!=", "read_only")
    .execute();
  if (executions.some((e) => e.status === "completed")) return null;
  const ran = executions.length
    ? `its mutating executions ended ${executions.map((e) => `${e.id} ${e.status}`).join(", ")}`
    : "no mutating command of it ran";
  return refused(
    "no_evidence",
    `complete_task(success) refused: the plan has ${steps.length} step(s) that change something ` +
      `(${steps.map((s) => `${s.seq}. ${s.title}`).join("; ")}) but ${ran}, so nothing was changed.`,
    undefined,
    {
      steps: steps.map((s) => s.seq),
      executions: executions.map((e) => ({ id: e.id, status: e.status, step_seq: e.step_seq })),
    },
  );
}
