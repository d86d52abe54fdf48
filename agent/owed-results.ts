import { z } from "zod";
import type { QueuePort } from "../jobs/queue/port.ts";
import { isTerminalExecutionStatus, markResultsOwed } from "../store/executions.ts";
import type { ExecutionStatus } from "../store/statuses.ts";
import type { AgentDeps } from "./agent-deps.ts";

/** The continue job id for an execution: one continuation per execution, however often the event arrives. */
export function continueJobId(executionId: string): string {
  return `continue-${executionId}`;
}

const executionState = z.object({ execution_id: z.string().min(1), status: z.string().min(1) });
/** What run / get_execution_status (one execution) and run_many / inspect_path (per target) answer. */
const toolResult = z.union([z.object({ results: z.array(z.unknown()) }), executionState]);

/** On its way (one waiting for approval reaches the session through the operator's decision instead). */
const RUNNING: readonly string[] = ["approved", "queued", "running"] satisfies ExecutionStatus[];

/**
 * The executions a tool result reported as not finished yet (run answered `pending`, a fan-out
 * item still queued or running, get_execution_status before the end). Read from the tool's
 * structured content, never its wording.
 */
export function unfinishedExecutions(structured: unknown): string[] {
  const parsed = toolResult.safeParse(structured);
  if (!parsed.success) return [];
  const items = "results" in parsed.data ? parsed.data.results : [parsed.data];
  return items.flatMap((item) => {
    const state = executionState.safeParse(item);
    return state.success && RUNNING.includes(state.data.status) ? [state.data.execution_id] : [];
  });
}

/**
 * The model was told these executions are still running: their results are owed to the session, so
 * each one's end continues it (agent/continuation.ts), plan or no plan. One that ended before the
 * mark was written had its execution.finished handled without it: its continuation is enqueued here.
 */
export async function oweResults(
  deps: Pick<AgentDeps, "db"> & { queue?: Pick<QueuePort, "enqueue"> | undefined },
  sessionId: string,
  executionIds: readonly string[],
): Promise<void> {
  const rows = await markResultsOwed(deps.db, sessionId, executionIds);
  for (const row of rows) {
    if (!isTerminalExecutionStatus(row.status) || !deps.queue) continue;
    await deps.queue.enqueue(
      "continue",
      { sessionId, executionId: row.id },
      { jobId: continueJobId(row.id) },
    );
  }
}
