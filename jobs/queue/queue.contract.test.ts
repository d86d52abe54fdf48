import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../test-support/redis.ts";
import { createTestStore, defaultDialect, type TestStore } from "../../test-support/store.ts";
import { BullmqQueue } from "./bullmq.ts";
import { InvalidJobPayloadError, QueueClosedError, UnrecoverableJobError } from "./errors.ts";
import { InProcessQueue } from "./in-process.ts";
import type { JobFailure, QueuePort } from "./port.ts";

// One contract, every adapter: the same tests run on the in-process queue (memory journal and the
// durable kysely journal) and on BullMQ when REDIS_URL is set.

interface Failure {
  error: unknown;
  job: JobFailure;
}
type MakeQueue = (onError: (error: unknown, job: JobFailure) => void) => QueuePort;

const redisUrl = redisTestUrl();
const filePrefix = redisTestPrefix(import.meta.url);
let store: TestStore | undefined;
let queueCount = 0;

const adapters: { name: string; skip: string | false; make: MakeQueue }[] = [
  { name: "in-process (memory journal)", skip: false, make: (onError) => new InProcessQueue({ onError }) },
  {
    name: `in-process (kysely journal on ${defaultDialect()})`,
    skip: false,
    make: (onError) => new InProcessQueue({ onError, journal: new KyselyJobJournal(store!.db) }),
  },
  {
    name: "bullmq",
    skip: redisUrl ? false : "BullMQ adapter skipped: REDIS_URL is not set",
    make: (onError) =>
      new BullmqQueue({ redisUrl: redisUrl!, prefix: `${filePrefix}_${++queueCount}`, onError }),
  },
];

before(async () => {
  store = await createTestStore();
});

after(async () => {
  await store?.dispose();
  if (redisUrl) await deleteRedisKeys(redisUrl, filePrefix);
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A queue plus the failures it reported; closed by the caller's finally. */
function open(make: MakeQueue) {
  const failures: Failure[] = [];
  const waiters: { match: (f: Failure) => boolean; resolve: (f: Failure) => void }[] = [];
  const queue = make((error, job) => {
    const failure = { error, job };
    failures.push(failure);
    for (const waiter of waiters.filter((w) => w.match(failure))) waiter.resolve(failure);
  });
  const nextFailure = (match: (f: Failure) => boolean) =>
    new Promise<Failure>((resolve) => {
      const seen = failures.find(match);
      if (seen) resolve(seen);
      else waiters.push({ match, resolve });
    });
  return { queue, failures, nextFailure };
}

for (const adapter of adapters) {
  describe(`queue contract: ${adapter.name}`, { skip: adapter.skip, timeout: 30_000 }, () => {
    test("an enqueued job reaches its handler with its data, id and attempt", async () => {
      const { queue } = open(adapter.make);
      try {
        const seen = deferred<{ id: string; queue: string; data: unknown; attempt: number }>();
        queue.register("agent-turn", async (job) => {
          seen.resolve({ id: job.id, queue: job.queue, data: job.data, attempt: job.attempt });
        });
        await queue.start();
        const data = { sessionId: "s1", reason: "message" as const, messageId: "m1" };
        const id = await queue.enqueue("agent-turn", data);
        assert.deepEqual(await seen.promise, { id, queue: "agent-turn", data, attempt: 1 });
      } finally {
        await queue.close();
      }
    });

    test("a queue never runs more jobs at once than its concurrency", async () => {
      const { queue } = open(adapter.make);
      try {
        let inFlight = 0;
        let maxInFlight = 0;
        let done = 0;
        const limitReached = deferred();
        const allDone = deferred();
        queue.register(
          "execute",
          async () => {
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            if (inFlight === 2) limitReached.resolve();
            await limitReached.promise;
            await tick(20); // leave room for an over-eager adapter to start a third
            inFlight--;
            if (++done === 6) allDone.resolve();
          },
          { concurrency: 2 },
        );
        for (let i = 0; i < 6; i++) await queue.enqueue("execute", { executionId: `e${i}` });
        await queue.start();
        await allDone.promise;
        assert.equal(maxInFlight, 2);
      } finally {
        await queue.close();
      }
    });

    test("a failing job is retried with exponential backoff until it succeeds", async () => {
      const { queue, failures } = open(adapter.make);
      try {
        const runs: { attempt: number; at: number }[] = [];
        const succeeded = deferred();
        queue.register("execute", async (job) => {
          runs.push({ attempt: job.attempt, at: Date.now() });
          if (job.attempt < 3) throw new Error(`transient ${job.attempt}`);
          succeeded.resolve();
        });
        await queue.start();
        await queue.enqueue("execute", { executionId: "retry" }, { attempts: 4, backoffMs: 40 });
        await succeeded.promise;
        assert.deepEqual(
          runs.map((r) => r.attempt),
          [1, 2, 3],
        );
        // Backoff is a lower bound: 40 ms before the 2nd run, 80 ms before the 3rd (timer slack 5 ms).
        assert.ok(runs[1]!.at - runs[0]!.at >= 35, `first backoff ${runs[1]!.at - runs[0]!.at} ms`);
        assert.ok(runs[2]!.at - runs[1]!.at >= 75, `second backoff ${runs[2]!.at - runs[1]!.at} ms`);
        assert.deepEqual(
          failures.map((f) => [f.job.attempt, f.job.final]),
          [
            [1, false],
            [2, false],
          ],
        );
      } finally {
        await queue.close();
      }
    });

    test("UnrecoverableJobError fails the job at once, without retries", async () => {
      const { queue, nextFailure } = open(adapter.make);
      try {
        let runs = 0;
        queue.register("execute", async () => {
          runs++;
          throw new UnrecoverableJobError("execution row is gone");
        });
        await queue.start();
        const id = await queue.enqueue("execute", { executionId: "gone" }, { attempts: 5, backoffMs: 1 });
        const failure = await nextFailure((f) => f.job.id === id && f.job.final);
        assert.equal(failure.job.attempt, 1);
        assert.equal(runs, 1);
        assert.match(String((failure.error as Error).message), /execution row is gone/);
      } finally {
        await queue.close();
      }
    });

    test("jobId dedupes while waiting or active, and may run again once done", async () => {
      const { queue } = open(adapter.make);
      try {
        const runs: string[] = [];
        const gate = deferred();
        const firstStarted = deferred();
        const sentinelDone = deferred();
        queue.register("execute", async (job) => {
          runs.push(job.data.executionId);
          if (job.data.executionId === "a" && runs.length === 1) {
            firstStarted.resolve();
            await gate.promise;
          }
          if (job.data.executionId === "sentinel") sentinelDone.resolve();
        });
        await queue.start();
        const idA = await queue.enqueue("execute", { executionId: "a" }, { jobId: "exec:a" });
        assert.equal(idA, "exec:a");
        await firstStarted.promise;
        assert.equal(await queue.enqueue("execute", { executionId: "a" }, { jobId: "exec:a" }), "exec:a");
        await queue.enqueue("execute", { executionId: "b" }, { jobId: "exec:b" });
        await queue.enqueue("execute", { executionId: "b" }, { jobId: "exec:b" });
        await queue.enqueue("execute", { executionId: "sentinel" });
        gate.resolve();
        await sentinelDone.promise; // concurrency 1, FIFO: everything enqueued before it has run
        assert.deepEqual(runs, ["a", "b", "sentinel"]);

        await queue.enqueue("execute", { executionId: "a" }, { jobId: "exec:a" });
        await queue.enqueue("execute", { executionId: "sentinel" });
        await waitUntil(() => runs.length === 5);
        assert.deepEqual(runs, ["a", "b", "sentinel", "a", "sentinel"]);
      } finally {
        await queue.close();
      }
    });

    test("a delayed job runs after an immediate one and not before its delay", async () => {
      const { queue } = open(adapter.make);
      try {
        const order: { id: string; at: number }[] = [];
        const bothDone = deferred();
        queue.register(
          "execute",
          async (job) => {
            order.push({ id: job.data.executionId, at: Date.now() });
            if (order.length === 2) bothDone.resolve();
          },
          { concurrency: 2 },
        );
        await queue.start();
        const enqueuedAt = Date.now();
        await queue.enqueue("execute", { executionId: "later" }, { delayMs: 300 });
        await queue.enqueue("execute", { executionId: "now" });
        await bothDone.promise;
        assert.deepEqual(
          order.map((o) => o.id),
          ["now", "later"],
        );
        assert.ok(order[1]!.at - enqueuedAt >= 295, `delayed job ran after ${order[1]!.at - enqueuedAt} ms`);
      } finally {
        await queue.close();
      }
    });

    test("a job delayed past setTimeout's 24.8-day limit does not run early", async () => {
      const { queue } = open(adapter.make);
      try {
        let ran = false;
        queue.register("learn", async () => {
          ran = true;
        });
        await queue.start();
        await queue.enqueue("learn", {}, { delayMs: 30 * 24 * 3_600_000 });
        await tick(300);
        assert.equal(ran, false);
      } finally {
        await queue.close();
      }
    });

    test("a repeatable job fires more than once and repeating by the same key replaces it", async () => {
      const { queue } = open(adapter.make);
      try {
        const fired: unknown[] = [];
        const twice = deferred();
        queue.register("sweep", async (job) => {
          fired.push(job.data);
          if (fired.length === 2) twice.resolve();
        });
        await queue.repeat("sweep", { kind: "all" }, { everyMs: 100, key: "sweep-all" });
        await queue.repeat("sweep", { kind: "all" }, { everyMs: 100, key: "sweep-all" });
        await queue.repeat("sweep", { kind: "all" }, { everyMs: 100, key: "sweep-all" });
        const repeats = await queue.listRepeats();
        assert.deepEqual(
          repeats.map(({ key, queue, everyMs }) => ({ key, queue, everyMs })),
          [{ key: "sweep-all", queue: "sweep", everyMs: 100 }],
        );
        await queue.start();
        await twice.promise;
        assert.deepEqual(fired.slice(0, 2), [{ kind: "all" }, { kind: "all" }]);
      } finally {
        await queue.close();
      }
    });

    test("close lets a running job finish within the grace period, then refuses new work", async () => {
      const { queue } = open(adapter.make);
      try {
        const started = deferred();
        let finished = false;
        let aborted = false;
        queue.register("execute", async (job) => {
          started.resolve();
          await tick(150);
          aborted = job.signal.aborted;
          finished = true;
        });
        await queue.start();
        await queue.enqueue("execute", { executionId: "slow" });
        await started.promise;
        await queue.close({ graceMs: 10_000 });
        assert.equal(finished, true);
        assert.equal(aborted, false);
        await assert.rejects(queue.enqueue("execute", { executionId: "late" }), QueueClosedError);
      } finally {
        await queue.close();
      }
    });

    test("close past the grace period aborts the job and records it interrupted", async () => {
      const { queue } = open(adapter.make);
      try {
        const started = deferred();
        const interrupted: { id: string; data: unknown; reason: string }[] = [];
        let sawAbort = false;
        queue.register(
          "execute",
          async (job) => {
            started.resolve();
            await new Promise((resolve) => job.signal.addEventListener("abort", resolve, { once: true }));
            sawAbort = true;
          },
          {
            onInterrupted: async (job) => {
              interrupted.push({ id: job.id, data: job.data, reason: job.reason });
            },
          },
        );
        await queue.start();
        const id = await queue.enqueue("execute", { executionId: "stuck" });
        await started.promise;
        await queue.close({ graceMs: 50 });
        assert.equal(sawAbort, true);
        assert.equal(interrupted.length, 1);
        assert.equal(interrupted[0]!.id, id);
        assert.deepEqual(interrupted[0]!.data, { executionId: "stuck" });
        assert.match(interrupted[0]!.reason, /shutdown/);
      } finally {
        await queue.close();
      }
    });

    test("an invalid payload is rejected at enqueue with the queue and the issue", async () => {
      const { queue } = open(adapter.make);
      try {
        await assert.rejects(
          queue.enqueue("execute", { executionId: 42 } as never),
          (error: unknown) =>
            error instanceof InvalidJobPayloadError &&
            error.code === "job_payload_invalid" &&
            error.queue === "execute" &&
            /execute/.test(error.message) &&
            /executionId/.test(error.message),
        );
        await assert.rejects(
          queue.enqueue("agent-turn", { sessionId: "s", reason: "whim" } as never),
          /reason/,
        );
        await assert.rejects(
          queue.repeat("sweep", { kind: "everything" } as never, { everyMs: 1000, key: "bad" }),
          InvalidJobPayloadError,
        );
      } finally {
        await queue.close();
      }
    });
  });
}

/** Polls until a condition holds; the test's timeout bounds it. */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await tick(5);
}
