import { refusal } from "../../policy/refusals.ts";
import { planProposed, sessionStatus } from "../../store/domain-events.ts";
import { getExecution } from "../../store/executions.ts";
import { goalSince } from "../../store/goals.ts";
import {
  currentPlan,
  isClosedStep,
  type NewStep,
  nextOpenStep,
  REPLACED_REASONS,
  type ReplacedReason,
  type StepStatus,
  setStepStatus,
} from "../../store/plans.ts";
import { recordActivity } from "../../store/session-activity.ts";
import { proposeTaskPlan, setTaskGoal } from "../../store/task-plan.ts";
import { now } from "../tool-deps.ts";
import { ok, refused, type ToolResult } from "../tool-result.ts";
import { loadOpenSession, publish, type TaskToolDeps } from "./task-deps.ts";

const WRITEBACK_PATTERN = /update_entity_attributes|create_relationship|upsert_knowledge|write[\s-]?back/i;
export const WRITEBACK_STEP: NewStep = {
  title: "Write back: update_entity_attributes + create_relationship + upsert_knowledge",
  detail: "Record the entity facts, relationships and any reusable procedure (runbook) learned in this task.",
  risk: "read_only",
};

export async function setGoal(deps: TaskToolDeps, sessionId: string, goal: string): Promise<ToolResult> {
  const loaded = await loadOpenSession(deps, sessionId, "set_goal");
  if ("refusal" in loaded) return loaded.refusal;
  const at = now(deps);
  if (loaded.session.goal === goal.trim() && !loaded.session.requires_replan) {
    return ok({
      kind: "goal_unchanged",
      goal,
      unchanged: true,
      next: "This is already the goal. Advance the current plan with update_plan_step; do not re-propose.",
    });
  }
  const result = await setTaskGoal(deps.db, sessionId, goal.trim(), at);
  await publish(deps, sessionStatus(sessionId, "planning"));
  return ok({
    kind: "goal_set",
    goal: goal.trim(),
    superseded_goal: result.superseded,
    replaced_steps: result.replaced,
    next:
      "Goal set. NEXT: research with read-only tools (search_knowledge, get_entity_knowledge, get_entity; read-only run " +
      "is allowed but capped), then call propose_plan ONCE with the full step list. No mutations before the plan is approved.",
  });
}

export async function proposePlan(
  deps: TaskToolDeps,
  sessionId: string,
  steps: NewStep[],
): Promise<ToolResult> {
  const loaded = await loadOpenSession(deps, sessionId, "propose_plan");
  if ("refusal" in loaded) return loaded.refusal;
  const { session } = loaded;
  const at = now(deps);
  if (!session.goal) {
    return refused(refusal("no_goal", "propose_plan refused: there is no goal yet."));
  }
  if (
    session.requires_replan &&
    session.reopened_at &&
    !(await goalSince(deps.db, sessionId, session.reopened_at))
  ) {
    return refused(
      refusal(
        "reopened_without_goal",
        "propose_plan refused: this session was finished and reopened by a new operator message.",
      ),
    );
  }
  const current = await currentPlan(deps.db, sessionId);
  if (current && !["superseded", "denied"].includes(current.plan.status)) {
    const started = current.steps.filter((s) => s.status !== "pending" && s.status !== "replaced");
    const open = nextOpenStep(current.steps);
    if (started.length > 0 && open) {
      return refused(
        refusal(
          "plan_started",
          `propose_plan refused: step ${started[0]!.seq} of plan ${current.plan.generation} has started ` +
            `(${started[0]!.status}).`,
          `Advance with update_plan_step (next open step: ${open.seq} "${open.title}"); ` +
            "to change course, mark the remaining steps replaced with a replaced_reason " +
            `(${REPLACED_REASONS.join(", ")}), then propose again. Do not re-propose the same plan.`,
        ),
      );
    }
  }
  const withWriteback = steps.some((s) => WRITEBACK_PATTERN.test(`${s.title} ${s.detail ?? ""}`))
    ? steps
    : [...steps, WRITEBACK_STEP];
  const appended = withWriteback.length > steps.length;
  const needsApproval = withWriteback.some((s) => s.risk !== "read_only");
  const { generation } = await proposeTaskPlan(deps.db, sessionId, withWriteback, { needsApproval, now: at });
  await publish(deps, planProposed({ sessionId, generation }));
  return ok({
    kind: needsApproval ? "plan_awaiting_approval" : "plan_accepted",
    generation,
    steps: withWriteback.map((s, i) => ({
      seq: i + 1,
      title: s.title,
      risk: s.risk ?? "unstated (treated as mutation)",
    })),
    writeback_step_appended: appended ? withWriteback.length : null,
    needs_approval: needsApproval,
    next: needsApproval
      ? "STOP: the plan is shown to the operator for approval; your turn ends now and you are resumed when they decide. " +
        "After approval, advance step by step: update_plan_step(seq, running) → run → update_plan_step(seq, done)."
      : "All steps are read-only: start now with update_plan_step(1, running), then run.",
  });
}

export interface StepUpdate {
  seq: number;
  status: StepStatus;
  note?: string;
  execution_id?: string;
  replaced_reason?: string;
}

export async function updatePlanStep(
  deps: TaskToolDeps,
  sessionId: string,
  update: StepUpdate,
): Promise<ToolResult> {
  const loaded = await loadOpenSession(deps, sessionId, "update_plan_step");
  if ("refusal" in loaded) return loaded.refusal;
  const at = now(deps);
  const current = await currentPlan(deps.db, sessionId);
  if (!current || current.plan.status === "superseded") {
    return refused(refusal("no_plan", "update_plan_step refused: there is no current plan."));
  }
  const { plan, steps } = current;
  if (plan.status === "denied") {
    return refused(
      refusal("plan_denied", `update_plan_step refused: the operator denied plan ${plan.generation}.`),
    );
  }
  const step = steps.find((s) => s.seq === update.seq);
  const open = nextOpenStep(steps);
  const advance = open
    ? `The next open step is ${open.seq} "${open.title}" (${open.status}): update_plan_step(${open.seq}, running), run it, then mark it done.`
    : "Every step is closed: verify the operator's goal, then complete_task.";
  if (!step) {
    return refused(
      refusal(
        "unknown_step",
        `update_plan_step refused: plan ${plan.generation} has no step ${update.seq}; its steps are ` +
          `${steps.map((s) => `${s.seq} "${s.title}" (${s.status})`).join(", ")}.`,
        `Use one of these seq numbers. ${advance}`,
      ),
    );
  }
  if (update.status === "replaced") {
    if (
      !update.replaced_reason ||
      !(REPLACED_REASONS as readonly string[]).includes(update.replaced_reason)
    ) {
      return refused(
        refusal(
          "replaced_reason_required",
          `update_plan_step refused: status replaced needs replaced_reason, one of ${REPLACED_REASONS.join(", ")}.`,
        ),
      );
    }
  }
  if (isClosedStep(step.status) && !isClosedStep(update.status)) {
    return refused(
      refusal(
        "step_closed",
        `update_plan_step refused: step ${step.seq} is already ${step.status}; a closed step does not go back to ` +
          `${update.status}.`,
        `${advance} If step ${step.seq} turned out wrong, mark it failed (with a note) or replaced ` +
          `(with a replaced_reason: ${REPLACED_REASONS.join(", ")}); to redo its work, replace the open steps and ` +
          "propose_plan with a step that does it again.",
      ),
    );
  }
  if (update.status === "running" || update.status === "done") {
    const earlier = steps.find((s) => s.seq < step.seq && !isClosedStep(s.status));
    if (earlier) {
      return refused(
        refusal(
          "steps_out_of_order",
          `update_plan_step refused: steps complete in order, and step ${earlier.seq} "${earlier.title}" is still ` +
            `${earlier.status}.`,
        ),
      );
    }
    if (plan.status === "proposed" && step.risk !== "read_only") {
      return refused(
        refusal(
          "step_needs_approval",
          `update_plan_step refused: plan ${plan.generation} is waiting for the operator's approval and step ${step.seq} ` +
            "is not read-only.",
        ),
      );
    }
  }
  if (update.execution_id) {
    const execution = await getExecution(deps.db, update.execution_id);
    if (!execution || execution.session_id !== sessionId) {
      return refused(
        refusal(
          "foreign_execution",
          `update_plan_step refused: execution ${update.execution_id} does not belong to this session.`,
        ),
      );
    }
  }
  await setStepStatus(deps.db, step, {
    status: update.status,
    note: update.note,
    executionId: update.execution_id,
    replacedReason: update.status === "replaced" ? (update.replaced_reason as ReplacedReason) : undefined,
    now: at,
  });
  await recordActivity(deps.db, sessionId, at);
  const after = await currentPlan(deps.db, sessionId);
  const next = after ? nextOpenStep(after.steps) : undefined;
  return ok({
    kind: "step_updated",
    seq: step.seq,
    status: update.status,
    next_step: next ? { seq: next.seq, title: next.title, status: next.status } : null,
    next: next
      ? `Advance: step ${next.seq} "${next.title}" — update_plan_step(${next.seq}, running), run, then mark it done. Do not re-propose.`
      : "Every step is closed. Verify the operator's actual goal, make sure the write-back happened, then complete_task.",
  });
}
