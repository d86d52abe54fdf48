import { z } from "zod";
import { OUTCOMES, STEP_STATUSES } from "../../store/statuses.ts";
import { outcome, outcomeSchema } from "../output-schema.ts";

/** What each task tool returns as `structuredContent` (and, as JSON, as its text). */

const next = z.string().describe("the next correct action");

export const setGoalOutput = outcomeSchema(
  outcome("goal_set", {
    goal: z.string(),
    superseded_goal: z.string().nullable(),
    replaced_steps: z.number().int(),
    next,
  }),
  outcome("goal_unchanged", { goal: z.string(), unchanged: z.literal(true), next }),
);

const planShape = {
  generation: z.number().int(),
  steps: z.array(z.object({ seq: z.number().int(), title: z.string(), risk: z.string() })),
  writeback_step_appended: z.number().int().nullable(),
  needs_approval: z.boolean(),
  next,
};

export const proposePlanOutput = outcomeSchema(
  outcome("plan_awaiting_approval", planShape),
  outcome("plan_accepted", planShape),
);

export const updatePlanStepOutput = outcomeSchema(
  outcome("step_updated", {
    seq: z.number().int(),
    status: z.enum(STEP_STATUSES),
    next_step: z
      .object({ seq: z.number().int(), title: z.string(), status: z.enum(STEP_STATUSES) })
      .nullable(),
    next,
  }),
);

export const askOperatorOutput = outcomeSchema(outcome("question_asked", { question_id: z.string(), next }));

export const completeTaskOutput = outcomeSchema(
  outcome("task_completed", {
    outcome: z.enum(OUTCOMES),
    outcome_note: z.string().optional(),
    plan_adherence: z.string().nullable(),
    cancelled_approvals: z.number().int(),
    knowledge: z.string().nullable(),
    next,
  }),
);

export const startSessionOutput = outcomeSchema(
  outcome("session_started", {
    session_id: z.string(),
    principal: z.string(),
    goal: z.string().nullable(),
    next,
  }),
);
