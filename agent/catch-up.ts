import type { QueuePort } from "../jobs/queue/port.ts";
import type { Db } from "../store/db.ts";
import { executionFinished } from "../store/domain-events.ts";
import { endedWithoutNote, isTerminalExecutionStatus } from "../store/executions.ts";
import { onExecutionFinished } from "./continuation.ts";

const LOOKBACK_MS = 24 * 60 * 60_000;

/**
 * At start-up: executions that ended while no agent could hear it (the process stopped between the
 * end of a command and its continuation, e.g. a worker recorded `interrupted` while the queue was
 * closing) get their continuation now. A continuation leaves a note named `execution:<id>`, so an
 * execution without one was never reported; `continue` jobs are deduplicated per execution and
 * skip results the model already saw, so running this twice is harmless.
 */
export async function continueUnreportedExecutions(
  deps: { db: Db; queue: Pick<QueuePort, "enqueue"> },
  now: Date = new Date(),
): Promise<string[]> {
  const rows = await endedWithoutNote(deps.db, new Date(now.getTime() - LOOKBACK_MS));
  const enqueued: string[] = [];
  for (const row of rows) {
    if (!isTerminalExecutionStatus(row.status)) continue; // the query selects only ended ones
    const outcome = await onExecutionFinished(deps, executionFinished(row, row.status));
    if (outcome === "enqueued") enqueued.push(row.id);
  }
  return enqueued;
}
