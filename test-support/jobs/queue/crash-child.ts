// Child process for in-process-crash.test.ts. Usage: node crash-child.ts <first|second> <pglite-dir>
// first:  enqueue a long job and two waiting ones, start, print LONG_STARTED, then hang (the test kill -9s it).
// second: restart on the same data dir; print one JSON line per event; exit 0 when the waiting jobs ran.

import { InProcessQueue } from "../../../jobs/queue/in-process.ts";
import { openStore } from "../../../store/connect.ts";
import { migrateToLatest } from "../../../store/migrate.ts";
import { KyselyJobJournal } from "../../../store/queue-journal.ts";

const [phase, dataDir] = process.argv.slice(2);
if (!dataDir || (phase !== "first" && phase !== "second"))
  throw new Error("usage: crash-child.ts <first|second> <dir>");

const store = await openStore({ kind: "pglite", dataDir });
await migrateToLatest(store.db);
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const queue = new InProcessQueue({
  journal: new KyselyJobJournal(store.db),
  onError: (error, job) => say({ error: String(error), job: job.id }),
});

if (phase === "first") {
  queue.register("execute", async (job) => {
    if (job.data.executionId !== "long") return;
    say({ started: job.id });
    await new Promise(() => setInterval(() => {}, 60_000)); // hangs until killed
  });
  await queue.enqueue("execute", { executionId: "long" }, { jobId: "exec-long" });
  await queue.enqueue("execute", { executionId: "w1" }, { jobId: "exec-w1" });
  await queue.enqueue("execute", { executionId: "w2" }, { jobId: "exec-w2", delayMs: 50 });
  await queue.start();
} else {
  let ran = 0;
  let finish: () => void = () => {};
  const waitingRan = new Promise<void>((resolve) => {
    finish = resolve;
  });
  queue.register(
    "execute",
    async (job) => {
      say({ ran: job.id, attempt: job.attempt });
      if (++ran === 2) finish();
    },
    {
      onInterrupted: async (job) => {
        say({ interrupted: job.id, data: job.data, reason: job.reason });
      },
    },
  );
  await queue.start();
  await waitingRan;
  await queue.close();
  const rows = await store.db
    .selectFrom("queue_jobs")
    .select(["id", "status", "attempts"])
    .orderBy("id")
    .execute();
  say({ rows });
  await store.close();
}
