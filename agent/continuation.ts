import type { DomainEventOf } from "../jobs/events/types.ts";
import { executionView, nextStepFor } from "../jobs/execution/execution-view.ts";
import { frameOutput } from "../jobs/execution/output-frame.ts";
import type { QueuePort } from "../jobs/queue/port.ts";
import { AGENT_PRINCIPAL } from "../policy/principal.ts";
import { getApproval } from "../store/approvals.ts";
import type { Db } from "../store/db.ts";
import { type Execution, getExecution, isTerminalExecutionStatus } from "../store/executions.ts";
import { appendMessage, hasNote, lastOperatorMessage, toolResultsNaming } from "../store/messages.ts";
import { closeStepsOfExecution, currentPlan, nextOpenStep } from "../store/plans.ts";
import { getSession } from "../store/sessions.ts";
import { acquireTurn } from "../store/turn-lease.ts";
import { type AgentDeps, clockOf, realSleep } from "./agent-deps.ts";
import { continueJobId } from "./owed-results.ts";
import { TurnInterrupted, type TurnSignals } from "./turn.ts";
import { newTurnOwner } from "./turn-owner.ts";
import { requestTurn, type TurnRequestResult } from "./turn-runner.ts";

export { continueJobId } from "./owed-results.ts";

/**
 * execution.finished → close the linked plan step, and when the session's plan is approved, the
 * execution was individually approved, or the model was told it is still running (its result is
 * owed: agent/owed-results.ts) enqueue a `continue` job. Event-driven; the assent window is not
 * consulted: an approved execution that outlived its window still continues.
 */
export async function onExecutionFinished(
  deps: { db: Db; queue: Pick<QueuePort, "enqueue"> },
  event: DomainEventOf<"execution.finished">,
): Promise<"enqueued" | "skipped"> {
  const execution = await getExecution(deps.db, event.executionId);
  if (!execution?.session_id || !isTerminalExecutionStatus(execution.status)) return "skipped";
  await closeStepsOfExecution(deps.db, execution);
  if (!(await continuationAllowed(deps.db, execution))) return "skipped";
  await deps.queue.enqueue(
    "continue",
    { sessionId: execution.session_id, executionId: execution.id },
    { jobId: continueJobId(execution.id) },
  );
  return "enqueued";
}

async function continuationAllowed(db: Db, execution: Execution): Promise<boolean> {
  // Only the agent's own sessions continue: an outside client's session is that client's to drive.
  const session = await getSession(db, execution.session_id!);
  if (session?.principal !== AGENT_PRINCIPAL.id) return false;
  // A read-only command that outran run's wait, plan or no plan: every result reaches its turn.
  if (execution.result_owed) return true;
  if (execution.approval_id) {
    const approval = await getApproval(db, execution.approval_id);
    if (approval?.status === "approved") return true;
  }
  const plan = await currentPlan(db, execution.session_id!);
  return plan?.plan.status === "approved";
}

export interface ContinueOptions extends TurnSignals {
  /** How long to wait for a running turn of the session to end before merging into it. Default 10 min. */
  waitMs?: number;
  /** Poll interval while waiting. Default 100 ms. */
  pollMs?: number;
}

/**
 * The `continue` job: a turn that starts from the execution's result and the next open step. When a
 * turn of the session is running, it waits for it (that turn may have seen the result already: then
 * nothing more happens) instead of running alongside it.
 */
export async function handleContinue(
  deps: AgentDeps,
  data: { sessionId: string; executionId: string },
  options: ContinueOptions = {},
): Promise<TurnRequestResult | { status: "skipped" }> {
  const execution = await getExecution(deps.db, data.executionId);
  if (!execution || execution.session_id !== data.sessionId) return { status: "skipped" };
  const owner = newTurnOwner();
  const deadline = Date.now() + (options.waitMs ?? 10 * 60_000);
  for (;;) {
    // Stopping before the note is written: the start-up catch-up continues this execution.
    if (options.stopping?.aborted) throw new TurnInterrupted("oikos is stopping");
    const session = await getSession(deps.db, data.sessionId);
    if (!session || session.status === "done" || session.status === "failed") return { status: "skipped" };
    if (await resultAlreadySeen(deps.db, execution)) return { status: "skipped" };
    const merge = Date.now() >= deadline;
    const acquired = await acquireTurn(deps.db, data.sessionId, owner, deps.options.leaseMs, clockOf(deps), {
      merge,
    });
    if (acquired === "acquired") break;
    if (acquired !== "busy") return { status: acquired };
    await (deps.sleep ?? realSleep)(options.pollMs ?? 100);
  }
  const marker = `execution:${execution.id}`;
  if (!(await hasNote(deps.db, data.sessionId, marker))) {
    await appendMessage(
      deps.db,
      {
        sessionId: data.sessionId,
        role: "system",
        content: await continuationNote(deps.db, execution),
        name: marker,
        author: "oikos",
      },
      clockOf(deps),
    );
  }
  return requestTurn(deps, data.sessionId, "continue", {
    owner,
    acquire: async () => "acquired",
    ...(options.stopping ? { stopping: options.stopping } : {}),
    ...(options.abort ? { abort: options.abort } : {}),
  });
}

/** The model already saw this execution's final status in a tool result (run waited long enough). */
async function resultAlreadySeen(db: Db, execution: Execution): Promise<boolean> {
  const results = await toolResultsNaming(db, execution.session_id!, execution.id, execution.created_at);
  return results.some((content) => content.includes(`"status":"${execution.status}"`));
}

const OUTPUT_TAIL = 1500;

async function continuationNote(db: Db, execution: Execution): Promise<string> {
  const view = executionView(execution);
  const plan = await currentPlan(db, execution.session_id!);
  const next = plan ? nextOpenStep(plan.steps) : undefined;
  const operator = await lastOperatorMessage(db, execution.session_id!);
  const tail = (text: string | null) =>
    text && text.length > OUTPUT_TAIL ? `…${text.slice(-OUTPUT_TAIL)}` : (text ?? "");
  const result = {
    execution_id: view.execution_id,
    status: view.status,
    target: view.target,
    command: view.command,
    exit_code: view.exit_code,
    duration_ms: view.duration_ms,
    // why it ended so when oikos ended it (a refusal at the worker: routing_changed, a failed snapshot …)
    ...(view.reason ? { reason: view.reason } : {}),
    stdout_tail: frameOutput(view, "stdout", tail(view.stdout)),
    stderr_tail: frameOutput(view, "stderr", tail(view.stderr)),
    next_step: nextStepFor(view),
  };
  return [
    `Execution finished: ${JSON.stringify(result)}`,
    next
      ? `Next open plan step: ${next.seq} "${next.title}" (${next.status}). Advance with update_plan_step and run; do not re-propose.`
      : "Every plan step is closed: verify the goal, write back, then complete_task.",
    ...(operator ? [`The operator last said: "${operator.content.slice(0, 300)}"`] : []),
  ].join("\n");
}
