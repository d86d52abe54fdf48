import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { QueuePort } from "../queue/port.ts";

/**
 * At start-up: `queued` executions still inside their deadline get their `execute` job. A stop or a
 * crash between the row and its job (or a queue that refused the job while closing) leaves such a
 * row; its approval still holds, so it runs now. A row that already has a job gets a second one,
 * which is harmless: the worker claims a row only while it is `queued`, so the command runs once.
 */
export async function requeueQueuedExecutions(
  db: Kysely<Database>,
  queue: Pick<QueuePort, "enqueue">,
  now: Date = new Date(),
): Promise<string[]> {
  const rows = await db
    .selectFrom("executions")
    .select("id")
    .where("status", "=", "queued")
    .where("deadline_at", ">", now)
    .orderBy("created_at")
    .execute();
  for (const row of rows) {
    await queue.enqueue("execute", { executionId: row.id }, { jobId: `execute:${row.id}` });
  }
  return rows.map((row) => row.id);
}
