import type { Db } from "../../store/db.ts";
import { queuedExecutionIds } from "../../store/executions.ts";
import type { QueuePort } from "../queue/port.ts";

/**
 * At start-up: `queued` executions still inside their deadline get their `execute` job. A stop or a
 * crash between the row and its job (or a queue that refused the job while closing) leaves such a
 * row; its approval still holds, so it runs now. A row that already has a job gets a second one,
 * which is harmless: the worker claims a row only while it is `queued`, so the command runs once.
 */
export async function requeueQueuedExecutions(
  db: Db,
  queue: Pick<QueuePort, "enqueue">,
  now: Date = new Date(),
): Promise<string[]> {
  const ids = await queuedExecutionIds(db, now);
  for (const id of ids) {
    await queue.enqueue("execute", { executionId: id }, { jobId: `execute:${id}` });
  }
  return ids;
}
