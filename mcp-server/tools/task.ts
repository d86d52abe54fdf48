import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { STEP_RISKS, STEP_STATUSES } from "../../store/plans.ts";
import { askQuestion } from "../../store/questions.ts";
import { defineTool } from "../define-tool.ts";
import { requireSession } from "../session-context.ts";
import { now } from "../tool-deps.ts";
import { ok } from "../tool-result.ts";
import { completeTask, OUTCOMES } from "./task-complete.ts";
import type { TaskToolDeps } from "./task-deps.ts";
import { loadOpenSession, publish } from "./task-deps.ts";
import { proposePlan, setGoal, updatePlanStep } from "./task-plan.ts";

export type { TaskToolDeps } from "./task-deps.ts";

/**
 * The task loop as tools: goal → plan → steps → question → completion. Every rule that matters is a
 * check here that refuses with the next correct action; SOUL.md only explains them.
 */
export function registerTaskTools(server: McpServer, deps: TaskToolDeps): void {
  defineTool(
    server,
    deps,
    "set_goal",
    {
      description:
        "Record the operator's goal for this task (first call of every task, and again when the operator gives a new " +
        "direction: the previous goal is closed as superseded and its open plan steps replaced). Then research read-only " +
        "and call propose_plan.",
      inputSchema: { goal: z.string().min(3).max(500).describe("the operator's goal, in one sentence") },
    },
    async (args, context) => {
      const session = requireSession(context.extra, "set_goal");
      if ("refusal" in session) return session.refusal;
      return setGoal(deps, session.sessionId, args.goal);
    },
  );

  defineTool(
    server,
    deps,
    "propose_plan",
    {
      description:
        "Propose the whole plan ONCE (every step, in order, each with its risk). A plan with any non-read-only step is " +
        "shown to the operator for approval and your turn ends. A write-back step is appended when missing. REFUSED once " +
        "a step has started: advance with update_plan_step instead; to change course, mark steps replaced with a reason.",
      inputSchema: {
        steps: z
          .array(
            z.object({
              title: z.string().min(3).max(200),
              detail: z.string().max(2000).optional(),
              target: z.string().optional().describe("entity slug the step works on"),
              risk: z
                .enum(STEP_RISKS)
                .optional()
                .describe("read_only | config_mutation | destructive; unstated counts as a mutation"),
            }),
          )
          .min(1)
          .max(30),
      },
    },
    async (args, context) => {
      const session = requireSession(context.extra, "propose_plan");
      if ("refusal" in session) return session.refusal;
      return proposePlan(deps, session.sessionId, args.steps);
    },
  );

  defineTool(
    server,
    deps,
    "update_plan_step",
    {
      description:
        "Advance the plan: mark a step running before its run, done after verifying, or failed / skipped / blocked. Steps " +
        "complete in seq order. status replaced needs replaced_reason (wrong_diagnosis, scope_change, blocked, superseded, " +
        "operator_override). Pass execution_id to link the step to its run: it closes when the execution ends.",
      inputSchema: {
        seq: z.number().int().min(1),
        status: z.enum(STEP_STATUSES),
        note: z.string().max(2000).optional(),
        execution_id: z.string().optional(),
        replaced_reason: z.string().optional(),
      },
    },
    async (args, context) => {
      const session = requireSession(context.extra, "update_plan_step");
      if ("refusal" in session) return session.refusal;
      return updatePlanStep(deps, session.sessionId, args);
    },
  );

  defineTool(
    server,
    deps,
    "ask_operator",
    {
      description:
        "Ask the operator a question and end your turn: before pivoting to a subsystem the goal did not mention, when " +
        "choosing between fixing in place and migrating, or when the goal is ambiguous. Offer options when you can.",
      inputSchema: {
        prompt: z.string().min(3).max(1000),
        why: z.string().max(1000).optional(),
        options: z.array(z.string().min(1).max(200)).max(6).optional(),
      },
    },
    async (args, context) => {
      const session = requireSession(context.extra, "ask_operator");
      if ("refusal" in session) return session.refusal;
      const loaded = await loadOpenSession(deps, session.sessionId, "ask_operator");
      if ("refusal" in loaded) return loaded.refusal;
      const at = now(deps);
      const question = await askQuestion(deps.db, { sessionId: session.sessionId, ...args }, at);
      await deps.db
        .updateTable("sessions")
        .set({ status: "awaiting_input", updated_at: at, last_activity_at: at })
        .where("id", "=", session.sessionId)
        .execute();
      await publish(deps, { type: "question.raised", sessionId: session.sessionId, questionId: question.id });
      return ok({
        question_id: question.id,
        next: "Question sent. End your turn now; the operator's answer arrives as their next message.",
      });
    },
  );

  defineTool(
    server,
    deps,
    "complete_task",
    {
      description:
        `Close the task with outcome ${OUTCOMES.join(" | ")}. Success is REFUSED while executions are still open and ` +
        "after live discovery without entity write-back. Before success, restate the operator's actual goal and verify " +
        "each part; anything only 'probably' working is partial. Closing writes a knowledge entry and feedback.",
      inputSchema: {
        outcome: z.string().describe(OUTCOMES.join(" | ")),
        summary: z.string().min(3).max(4000).describe("what was done and the state now"),
        verification: z.string().max(2000).optional().describe("how the goal was verified"),
        root_cause: z.string().max(1000).optional(),
        left_open: z.string().max(2000).optional().describe("what is left for later"),
      },
    },
    async (args, context) => {
      const session = requireSession(context.extra, "complete_task");
      if ("refusal" in session) return session.refusal;
      return completeTask(deps, session.sessionId, args);
    },
  );
}
