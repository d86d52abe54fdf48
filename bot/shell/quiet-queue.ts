import type { QueuePort } from "../../jobs/queue/port.ts";
import type { Db } from "../../store/db.ts";
import { busyJobs } from "../../store/queue-journal.ts";

const CONVERSATION_QUEUES = ["agent-turn", "execute", "continue"];

/**
 * Pipe mode of the terminal: waits until no agent turn, execution or continuation is waiting or
 * running (the in-process queue journals every job in queue_jobs), so a scripted conversation's
 * next line sees the plan card the previous line led to. Gives up after `maxMs`, or when jobs
 * only wait and none runs for `stalledMs` (no worker for them in this process). BullMQ queues
 * are not watched.
 */
export async function waitForQuietQueue(
  db: Db,
  queue: QueuePort,
  options: { maxMs?: number; pollMs?: number; stalledMs?: number } = {},
): Promise<void> {
  if (queue.kind !== "in-process") return;
  const deadline = Date.now() + (options.maxMs ?? 300_000);
  const pollMs = options.pollMs ?? 25;
  const stalledMs = options.stalledMs ?? 10_000;
  let quietChecks = 0;
  let lastProgress = Date.now();
  let lastSeen = "";
  while (Date.now() < deadline) {
    const busy = await busyJobs(db, CONVERSATION_QUEUES, new Date(Date.now() + 1000));
    quietChecks = busy.length > 0 ? 0 : quietChecks + 1;
    // Two quiet looks in a row: a job finishing can enqueue the next one (continue after execute).
    if (quietChecks >= 2) return;
    const seen = JSON.stringify(busy);
    if (seen !== lastSeen || busy.some((job) => job.status === "active")) {
      lastSeen = seen;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > stalledMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
