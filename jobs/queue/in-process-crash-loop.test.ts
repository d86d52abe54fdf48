import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import { createTestStore, defaultDialect, type TestStore } from "../../test-support/store.ts";
import { InProcessQueue } from "./in-process.ts";
import { createMemoryJobJournal, type JobJournal } from "./journal.ts";
import { type InterruptedJob, RERUN_INTERRUPTED_MAX_RUNS } from "./port.ts";

// A job that resumes from durable state (an agent turn) is run again when its process died under it,
// but a job that kills its process every time must not do so forever: after RERUN_INTERRUPTED_MAX_RUNS
// runs that each ended in a dead process it is not run again and onCrashLoop is called once.
// A crash is what the journal shows after it: the run was marked active and never finished.

let store: TestStore | undefined;
before(async () => {
  store = await createTestStore();
});
after(async () => {
  await store?.dispose();
});

const journals: { name: string; make: () => JobJournal }[] = [
  { name: "memory", make: () => createMemoryJobJournal() },
  { name: `kysely on ${defaultDialect()}`, make: () => new KyselyJobJournal(store!.db) },
];

type TurnData = { sessionId: string; reason: "message" };

/** The journal as a process leaves it that died during each of `runs` runs of job `id`. */
async function crashedRuns(journal: JobJournal, id: string, runs: number): Promise<void> {
  await journal.record({
    id,
    queue: "agent-turn",
    data: { sessionId: id, reason: "message" },
    maxAttempts: 1,
    backoffMs: 10,
    runAt: new Date(),
  });
  for (let run = 0; run < runs; run++) await journal.markActive(id);
}

/** A restarted process: the turn handler (counting its runs) and the crash-loop hook, then start. */
async function restart(journal: JobJournal, before?: (queue: InProcessQueue) => Promise<void>) {
  const queue = new InProcessQueue({ journal, onError: () => {} });
  const ran: { id: string; attempt: number }[] = [];
  const gaveUp: InterruptedJob<TurnData>[] = [];
  const done = Promise.withResolvers<void>();
  queue.register(
    "agent-turn",
    async (job) => {
      ran.push({ id: job.id, attempt: job.attempt });
      done.resolve();
    },
    {
      rerunInterrupted: true,
      onCrashLoop: async (job) => {
        gaveUp.push(job as InterruptedJob<TurnData>);
        done.resolve();
      },
    },
  );
  await before?.(queue);
  await queue.start();
  await done.promise;
  await queue.close();
  return { ran, gaveUp };
}

for (const { name, make } of journals) {
  describe(`in-process queue, a turn job whose process keeps dying (${name} journal)`, () => {
    test("fewer crashes than the cap: run again, its runs counted on", async () => {
      const journal = make();
      const id = `loop-under-${name}`;
      await crashedRuns(journal, id, RERUN_INTERRUPTED_MAX_RUNS - 1);
      const { ran, gaveUp } = await restart(journal);
      assert.deepEqual(ran, [{ id, attempt: RERUN_INTERRUPTED_MAX_RUNS }]);
      assert.deepEqual(gaveUp, []);
    });

    test("a crash in each allowed run: not run again, the hook called once, the journal closed", async () => {
      const journal = make();
      const id = `loop-cap-${name}`;
      await crashedRuns(journal, id, RERUN_INTERRUPTED_MAX_RUNS);
      const first = await restart(journal);
      assert.deepEqual(first.ran, []);
      assert.deepEqual(
        first.gaveUp.map((job) => [job.id, job.attempt, job.data]),
        [[id, RERUN_INTERRUPTED_MAX_RUNS, { sessionId: id, reason: "message" }]],
      );
      assert.match(first.gaveUp[0]!.reason, /each of this job's 3 runs/);
      assert.equal(
        (await journal.loadUnfinished()).some((row) => row.id === id),
        false,
        "the job is finished in the journal: no later start sees it again",
      );
    });

    test("enqueued again before start under the same id (a start-up resume): still the journal's runs, still given up", async () => {
      const journal = make();
      const id = `loop-twin-${name}`;
      await crashedRuns(journal, id, RERUN_INTERRUPTED_MAX_RUNS);
      const { ran, gaveUp } = await restart(journal, async (queue) => {
        await queue.enqueue("agent-turn", { sessionId: id, reason: "message" }, { jobId: id });
      });
      assert.deepEqual(ran, []);
      assert.deepEqual(
        gaveUp.map((job) => job.id),
        [id],
      );
    });
  });
}
