// Child process for bullmq-crash.test.ts. Usage: node bullmq-crash-child.ts <redis-url> <prefix>
// Enqueues a long job and a waiting one, starts a worker, prints {"started": id}, then hangs
// until the test kill -9s it (its job lock then expires: the job stalls).
import { BullmqQueue } from "../../../jobs/queue/bullmq.ts";

const [redisUrl, prefix] = process.argv.slice(2);
if (!redisUrl || !prefix) throw new Error("usage: bullmq-crash-child.ts <redis-url> <prefix>");

// A short stalled interval here too: the last checker sets a shared "stalled-check" key for that long.
const queue = new BullmqQueue({ redisUrl, prefix, lockDurationMs: 1_000, stalledIntervalMs: 300 });
queue.register("execute", async (job) => {
  if (job.data.executionId !== "long") return;
  process.stdout.write(`${JSON.stringify({ started: job.id })}\n`);
  await new Promise(() => setInterval(() => {}, 60_000));
});
await queue.enqueue("execute", { executionId: "long" }, { jobId: "exec-long" });
await queue.enqueue("execute", { executionId: "w1" }, { jobId: "exec-w1" });
await queue.start();
