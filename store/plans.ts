import type { Executor } from "./audit.ts";
import type { ChangeRequest, PlanStep } from "./schema.ts";
import type { ReplacedReason, StepRisk, StepStatus } from "./statuses.ts";

export {
  REPLACED_REASONS,
  type ReplacedReason,
  STEP_RISKS,
  STEP_STATUSES,
  type StepRisk,
  type StepStatus,
} from "./statuses.ts";

/** A step in one of these no longer holds up the steps after it. */
export const CLOSED_STEP_STATUSES: readonly StepStatus[] = [
  "done",
  "failed",
  "skipped",
  "blocked",
  "replaced",
];

export interface PlanRow {
  sessionId: string;
  generation: number;
  status: string;
  needsApproval: boolean;
  decidedBy: string | null;
  /** The operator sent it back with what to do instead (issue #32). */
  changesRequested: ChangeRequest | null;
}

export interface CurrentPlan {
  plan: PlanRow;
  steps: PlanStep[];
}

export function isClosedStep(status: string): boolean {
  return (CLOSED_STEP_STATUSES as readonly string[]).includes(status);
}

/** The session's latest plan generation and its steps, or undefined before any plan. */
export async function currentPlan(db: Executor, sessionId: string): Promise<CurrentPlan | undefined> {
  const plan = await db
    .selectFrom("plans")
    .selectAll()
    .where("session_id", "=", sessionId)
    .orderBy("generation", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!plan) return undefined;
  const steps = await db
    .selectFrom("plan_steps")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("generation", "=", plan.generation)
    .orderBy("seq")
    .execute();
  return {
    plan: {
      sessionId,
      generation: plan.generation,
      status: plan.status,
      needsApproval: plan.needs_approval,
      decidedBy: plan.decided_by,
      changesRequested: plan.changes_requested,
    },
    steps,
  };
}

/** The lowest-seq step that is still pending or running. */
export function nextOpenStep(steps: readonly PlanStep[]): PlanStep | undefined {
  return steps.find((step) => !isClosedStep(step.status));
}

export interface NewStep {
  title: string;
  detail?: string;
  target?: string;
  risk?: StepRisk;
}

/**
 * Writes a new plan generation: the previous generation is superseded (its open steps become
 * `replaced` / superseded), the new steps are numbered from 1. The caller checks the gates first.
 */
export async function insertPlanGeneration(
  tx: Executor,
  sessionId: string,
  steps: readonly NewStep[],
  options: { needsApproval: boolean; now: Date },
): Promise<{ generation: number }> {
  const session = await tx
    .selectFrom("sessions")
    .select("plan_generation")
    .where("id", "=", sessionId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const generation = session.plan_generation + 1;
  await tx
    .updateTable("plans")
    .set({ status: "superseded" })
    .where("session_id", "=", sessionId)
    .where("status", "in", ["proposed", "approved"])
    .execute();
  await tx
    .updateTable("plan_steps")
    .set({ status: "replaced", replaced_reason: "superseded", finished_at: options.now })
    .where("session_id", "=", sessionId)
    .where("status", "in", ["pending", "running"])
    .execute();
  await tx
    .insertInto("plans")
    .values({
      session_id: sessionId,
      generation,
      status: options.needsApproval ? "proposed" : "approved",
      needs_approval: options.needsApproval,
      decided_by: options.needsApproval ? null : "policy",
      decided_via: options.needsApproval ? null : "read_only_plan",
      decided_at: options.needsApproval ? null : options.now,
      card_ref: null,
      created_at: options.now,
    })
    .execute();
  await tx
    .insertInto("plan_steps")
    .values(
      steps.map((step, index) => ({
        session_id: sessionId,
        generation,
        seq: index + 1,
        title: step.title,
        detail: step.detail ?? "",
        target: step.target ?? null,
        risk: step.risk ?? null,
        note: null,
        execution_id: null,
        replaced_reason: null,
        started_at: null,
        finished_at: null,
        created_at: options.now,
      })),
    )
    .execute();
  await tx
    .updateTable("sessions")
    .set({ plan_generation: generation, updated_at: options.now })
    .where("id", "=", sessionId)
    .execute();
  return { generation };
}

/** Marks the open steps of the current generation replaced (a new goal supersedes the plan). */
export async function supersedeOpenSteps(tx: Executor, sessionId: string, now: Date): Promise<number> {
  await tx
    .updateTable("plans")
    .set({ status: "superseded" })
    .where("session_id", "=", sessionId)
    .where("status", "in", ["proposed", "approved"])
    .execute();
  const result = await tx
    .updateTable("plan_steps")
    .set({ status: "replaced", replaced_reason: "superseded", finished_at: now })
    .where("session_id", "=", sessionId)
    .where("status", "in", ["pending", "running"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setStepStatus(
  tx: Executor,
  step: PlanStep,
  update: {
    status: StepStatus;
    note?: string;
    executionId?: string;
    replacedReason?: ReplacedReason;
    now: Date;
  },
): Promise<void> {
  await tx
    .updateTable("plan_steps")
    .set({
      status: update.status,
      ...(update.note !== undefined ? { note: update.note } : {}),
      ...(update.executionId !== undefined ? { execution_id: update.executionId } : {}),
      ...(update.replacedReason !== undefined ? { replaced_reason: update.replacedReason } : {}),
      ...(update.status === "running" && !step.started_at ? { started_at: update.now } : {}),
      ...(isClosedStep(update.status) ? { finished_at: update.now } : {}),
    })
    .where("id", "=", step.id)
    .execute();
}

/**
 * A step linked to an execution closes when the execution ends: done when it completed, failed
 * otherwise. Only steps still open are touched; returns the steps closed.
 */
export async function closeStepsOfExecution(
  db: Executor,
  execution: {
    id: string;
    status: string;
    session_id: string | null;
    plan_generation: number | null;
    step_seq: number | null;
  },
  now = new Date(),
): Promise<PlanStep[]> {
  if (!execution.session_id) return [];
  const status: StepStatus = execution.status === "completed" ? "done" : "failed";
  const note = `execution ${execution.id} ${execution.status}`;
  return db
    .updateTable("plan_steps")
    .set({ status, finished_at: now, note, execution_id: execution.id })
    .where("session_id", "=", execution.session_id)
    .where("status", "in", ["pending", "running"])
    .where((eb) =>
      eb.or([
        eb("execution_id", "=", execution.id),
        ...(execution.plan_generation !== null && execution.step_seq !== null
          ? [eb.and([eb("generation", "=", execution.plan_generation), eb("seq", "=", execution.step_seq)])]
          : []),
      ]),
    )
    .returningAll()
    .execute();
}

/** Plan adherence of the latest generation: done / total (null without a plan). */
export async function planAdherence(
  db: Executor,
  sessionId: string,
): Promise<{ done: number; total: number; ratio: number | null }> {
  const plan = await currentPlan(db, sessionId);
  if (!plan || plan.steps.length === 0) return { done: 0, total: 0, ratio: null };
  const done = plan.steps.filter((step) => step.status === "done").length;
  return { done, total: plan.steps.length, ratio: done / plan.steps.length };
}

/** The generations of a session's plans still waiting for a decision. */
export async function proposedPlanGenerations(db: Executor, sessionId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("plans")
    .select("generation")
    .where("session_id", "=", sessionId)
    .where("status", "=", "proposed")
    .execute();
  return rows.map((row) => row.generation);
}

/** The newest plan of the session still waiting for an operator's approval, if any. */
export async function planAwaitingApproval(
  db: Executor,
  sessionId: string,
): Promise<{ generation: number } | undefined> {
  return db
    .selectFrom("plans")
    .select("generation")
    .where("session_id", "=", sessionId)
    .where("status", "=", "proposed")
    .where("needs_approval", "=", true)
    .orderBy("generation", "desc")
    .executeTakeFirst();
}

/** One plan generation and its steps in order, as its card shows them. */
export async function planWithSteps(db: Executor, sessionId: string, generation: number) {
  const plan = await db
    .selectFrom("plans")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("generation", "=", generation)
    .executeTakeFirst();
  if (!plan) return undefined;
  const steps = await db
    .selectFrom("plan_steps")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("generation", "=", generation)
    .orderBy("seq")
    .execute();
  return { plan, steps };
}

/** Whether this plan generation asked for an operator's approval. */
export async function planNeedsApproval(
  db: Executor,
  sessionId: string,
  generation: number,
): Promise<boolean> {
  const plan = await db
    .selectFrom("plans")
    .select("needs_approval")
    .where("session_id", "=", sessionId)
    .where("generation", "=", generation)
    .executeTakeFirst();
  return plan?.needs_approval ?? false;
}
