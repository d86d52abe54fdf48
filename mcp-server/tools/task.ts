import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { STEP_RISKS, STEP_STATUSES } from "../../store/plans.ts";
import { registerRoutingTools } from "./routing.ts";
import { registerSessionStart } from "./session-start.ts";
import { completeTask, OUTCOMES } from "./task-complete.ts";
import type { TaskToolDeps } from "./task-deps.ts";
import {
  askOperatorOutput,
  completeTaskOutput,
  proposePlanOutput,
  setGoalOutput,
  updatePlanStepOutput,
} from "./task-outputs.ts";
import { proposePlan, setGoal, updatePlanStep } from "./task-plan.ts";
import { askOperator } from "./task-question.ts";
import { defineSessionTool } from "./task-session-tool.ts";

export type { TaskToolDeps } from "./task-deps.ts";

/**
 * The task loop as tools: goal → plan → steps → question → completion. Every rule that matters is a
 * check here that refuses with the next correct action; SOUL.md only explains them.
 */
export function registerTaskTools(server: McpServer, deps: TaskToolDeps): void {
  registerSessionStart(server, deps);
  registerRoutingTools(server, deps);
  defineSessionTool(
    server,
    deps,
    "set_goal",
    {
      access: "operator",
      description:
        "Record the operator's goal for this task (first call of every task, and again when the operator gives a new " +
        "direction: the previous goal is closed as superseded and its open plan steps replaced). Then research read-only " +
        "and call propose_plan.",
      outputSchema: setGoalOutput,
      inputSchema: { goal: z.string().min(3).max(500).describe("the operator's goal, in one sentence") },
    },
    async (args, sessionId) => setGoal(deps, sessionId, args.goal),
  );

  defineSessionTool(
    server,
    deps,
    "propose_plan",
    {
      access: "operator",
      description:
        "Propose the whole plan ONCE (every step, in order, each with its risk). A plan with any non-read-only step is " +
        "shown to the operator for approval and your turn ends. A write-back step is appended when missing. REFUSED once " +
        "a step has started: advance with update_plan_step instead; to change course, mark steps replaced with a reason.",
      outputSchema: proposePlanOutput,
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
    async (args, sessionId) => proposePlan(deps, sessionId, args.steps),
  );

  defineSessionTool(
    server,
    deps,
    "update_plan_step",
    {
      access: "operator",
      description:
        "Advance the plan: mark a step running before its run, done after verifying, or failed / skipped / blocked. Steps " +
        "complete in seq order. status replaced needs replaced_reason (wrong_diagnosis, scope_change, blocked, superseded, " +
        "operator_override). Pass execution_id to link the step to its run: it closes when the execution ends.",
      outputSchema: updatePlanStepOutput,
      inputSchema: {
        seq: z.number().int().min(1),
        status: z.enum(STEP_STATUSES),
        note: z.string().max(2000).optional(),
        execution_id: z.string().optional(),
        replaced_reason: z.string().optional(),
      },
    },
    async (args, sessionId) => updatePlanStep(deps, sessionId, args),
  );

  defineSessionTool(
    server,
    deps,
    "ask_operator",
    {
      access: "operator",
      description:
        "Ask the operator a question and end your turn: before pivoting to a subsystem the goal did not mention, when " +
        "choosing between fixing in place and migrating, or when the goal is ambiguous. Offer options when you can.",
      outputSchema: askOperatorOutput,
      inputSchema: {
        prompt: z.string().min(3).max(1000),
        why: z.string().max(1000).optional(),
        options: z.array(z.string().min(1).max(200)).max(6).optional(),
      },
    },
    async (args, sessionId) => askOperator(deps, sessionId, args),
  );

  defineSessionTool(
    server,
    deps,
    "complete_task",
    {
      access: "operator",
      description:
        `Close the task with outcome ${OUTCOMES.join(" | ")}. Success is REFUSED while executions are still open and ` +
        "after live discovery without entity write-back. Before success, restate the operator's actual goal and verify " +
        "each part; anything only 'probably' working is partial. Closing writes a knowledge entry and feedback.",
      outputSchema: completeTaskOutput,
      inputSchema: {
        outcome: z.string().describe(OUTCOMES.join(" | ")),
        summary: z.string().min(3).max(4000).describe("what was done and the state now"),
        verification: z.string().max(2000).optional().describe("how the goal was verified"),
        root_cause: z.string().max(1000).optional(),
        left_open: z.string().max(2000).optional().describe("what is left for later"),
      },
    },
    async (args, sessionId) => completeTask(deps, sessionId, args),
  );
}
