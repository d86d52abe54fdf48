import { completeSessionTask, OUTCOMES, type TaskCompletionInput } from "../../store/task-completion.ts";
import { now } from "../tool-deps.ts";
import { ok, refused, type ToolResult } from "../tool-result.ts";
import { publish, type TaskToolDeps } from "./task-deps.ts";

export { OUTCOMES };

/** complete_task: store/task-completion.ts does the gates and the cascade; this publishes and words the result. */
export async function completeTask(
  deps: TaskToolDeps,
  sessionId: string,
  input: TaskCompletionInput,
): Promise<ToolResult> {
  const result = await completeSessionTask(deps.db, sessionId, input, {
    now: now(deps),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  if (!result.ok) return refused(result.refusal);
  for (const event of result.events) await publish(deps, event);
  return ok({
    kind: "task_completed",
    outcome: result.outcome,
    ...(result.outcomeNote ? { outcome_note: result.outcomeNote } : {}),
    plan_adherence:
      result.planAdherence.total > 0 ? `${result.planAdherence.done}/${result.planAdherence.total}` : null,
    cancelled_approvals: result.cancelledApprovals.length,
    knowledge: result.knowledge,
    next: "Task closed. Do not call any more tools for it.",
  });
}
