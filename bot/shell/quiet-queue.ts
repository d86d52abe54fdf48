import type { Kysely } from "kysely";
import type { QueuePort } from "../../jobs/queue/port.ts";
import type { Database } from "../../store/schema.ts";

/**
 * Pipe mode of the terminal: waits until no agent turn, execution or continuation is waiting or running (the in-process queue
 * journals every job in queue_jobs), so a scripted conversation's next line sees the plan card
 * the previous line led to. Gives up after `maxMs`; BullMQ queues are not watched.
 */
export async function waitForQuietQueue(
  db: Kysely<Database>,
  queue: QueuePort,
  options: { maxMs?: number; pollMs?: number } = {},
): Promise<void> {
  if (queue.kind !== "in-process") return;
  const deadline = Date.now() + (options.maxMs ?? 120_000);
  const pollMs = options.pollMs ?? 25;
  let quietChecks = 0;
  while (Date.now() < deadline) {
    const busy = await db
      .selectFrom("queue_jobs")
      .select("id")
      .where("queue", "in", ["agent-turn", "execute", "continue"])
      .where("status", "in", ["waiting", "active"])
      .where("run_at", "<=", new Date(Date.now() + 1000))
      .limit(1)
      .executeTakeFirst();
    quietChecks = busy ? 0 : quietChecks + 1;
    // Two quiet looks in a row: a job finishing can enqueue the next one (continue after execute).
    if (quietChecks >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
