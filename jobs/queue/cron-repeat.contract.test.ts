import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../test-support/redis.ts";
import { createTestStore, defaultDialect, type TestStore } from "../../test-support/store.ts";
import { BullmqQueue } from "./bullmq.ts";
import { InProcessQueue } from "./in-process.ts";
import type { QueuePort } from "./port.ts";

// Cron repeats on every adapter whose state outlives a process: the in-process queue on its
// durable journal, and BullMQ. `generation(n)` opens the n-th process's queue on the same state,
// so a test can stop one and start the next, as a restart does.

const redisUrl = redisTestUrl();
const filePrefix = redisTestPrefix(import.meta.url);
let store: TestStore | undefined;
let scope = 0;

type Adapter = { name: string; skip: string | false; scope(): () => QueuePort };

const adapters: Adapter[] = [
  {
    name: `in-process (kysely journal on ${defaultDialect()})`,
    skip: false,
    scope: () => {
      // Each scope gets journal rows of its own: a fresh repeat key per test keeps them apart.
      return () => new InProcessQueue({ journal: new KyselyJobJournal(store!.db), onError: () => {} });
    },
  },
  {
    name: "bullmq",
    skip: redisUrl ? false : "BullMQ adapter skipped: REDIS_URL is not set",
    scope: () => {
      const prefix = `${filePrefix}_${++scope}`;
      return () => new BullmqQueue({ redisUrl: redisUrl!, prefix, onError: () => {} });
    },
  },
];

before(async () => {
  store = await createTestStore();
});

after(async () => {
  await store?.dispose();
  if (redisUrl) await deleteRedisKeys(redisUrl, filePrefix);
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EVERY_SECOND = "* * * * * *";
let keys = 0;
const freshKey = () => `cron-${process.pid}-${++keys}`;

/**
 * Fire ids `repeat:<key>:<ms>` of `key` seen by one queue's `sweep` handler (the journal is shared
 * by the tests of a file: another test's pending fire may run here too, and is not counted).
 */
function recorder(queue: QueuePort, key: string) {
  const fired: string[] = [];
  queue.register("sweep", async (job) => {
    if (job.id.startsWith(`repeat:${key}:`)) fired.push(job.id);
  });
  return fired;
}

async function waitFor(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick(20);
  }
}

const fireTime = (id: string) => Number(id.slice(id.lastIndexOf(":") + 1));

for (const adapter of adapters) {
  describe(`cron repeats: ${adapter.name}`, { skip: adapter.skip, timeout: 60_000 }, () => {
    test("fires at the expression's times; each fire's job id carries its time; listRepeats shows the next run", async () => {
      const queue = adapter.scope()();
      const key = freshKey();
      try {
        const fired = recorder(queue, key);
        await queue.repeat("sweep", { kind: "stale" }, { key, cron: EVERY_SECOND, tz: "Europe/Berlin" });
        await queue.start();
        const [info] = (await queue.listRepeats()).filter((r) => r.key === key);
        assert.equal(info?.cron, EVERY_SECOND);
        assert.equal(info?.tz, "Europe/Berlin");
        assert.ok(
          info?.next instanceof Date && info.next.getTime() % 1000 === 0,
          "next run on a whole second",
        );
        await waitFor(() => fired.length >= 2, "two fires");
        for (const id of fired) assert.match(id, new RegExp(`^repeat:${key}:\\d+$`));
        assert.equal(fireTime(fired[1]!) - fireTime(fired[0]!), 1000);
      } finally {
        await queue.close();
      }
    });

    test("unrepeat stops a cron repeat and drops its pending fire", async () => {
      const queue = adapter.scope()();
      const key = freshKey();
      try {
        const fired = recorder(queue, key);
        await queue.repeat("sweep", { kind: "stale" }, { key, cron: EVERY_SECOND });
        await queue.start();
        await waitFor(() => fired.length >= 1, "a fire");
        assert.equal(await queue.unrepeat(key), true);
        assert.equal(await queue.unrepeat(key), false);
        const count = fired.length;
        await tick(2_300);
        assert.ok(fired.length <= count + 1, "at most a fire already running when it was removed");
        assert.deepEqual(
          (await queue.listRepeats()).filter((r) => r.key === key),
          [],
        );
      } finally {
        await queue.close();
      }
    });

    test("a bad cron expression or time zone is refused before anything is stored", async () => {
      const queue = adapter.scope()();
      try {
        await assert.rejects(
          queue.repeat("sweep", { kind: "all" }, { key: freshKey(), cron: "61 * * * *" }),
          RangeError,
        );
        await assert.rejects(
          queue.repeat("sweep", { kind: "all" }, { key: freshKey(), cron: "* * * *" }),
          /4 field/,
        );
        await assert.rejects(
          queue.repeat("sweep", { kind: "all" }, { key: freshKey(), cron: "0 3 * * *", tz: "Mars/Olympus" }),
          /time zone/,
        );
        assert.deepEqual(await queue.listRepeats(), []);
      } finally {
        await queue.close();
      }
    });

    test("a restart neither runs a fire twice nor loses the schedule", async () => {
      const open = adapter.scope();
      const key = freshKey();
      const first = open();
      const firedBefore = recorder(first, key);
      await first.repeat("sweep", { kind: "idle" }, { key, cron: EVERY_SECOND });
      await first.start();
      await waitFor(() => firedBefore.length >= 2, "two fires before the restart");
      await first.close({ graceMs: 5_000 });

      const second = open();
      const firedAfter = recorder(second, key);
      try {
        await second.repeat("sweep", { kind: "idle" }, { key, cron: EVERY_SECOND });
        await second.start();
        await waitFor(() => firedAfter.length >= 2, "two fires after the restart");
        const all = [...firedBefore, ...firedAfter];
        assert.equal(new Set(all).size, all.length, `a fire ran twice: ${all.join(", ")}`);
        const [info] = await second.listRepeats();
        assert.equal(info?.key, key);
      } finally {
        await second.close();
      }
    });

    test("a fire that fell due while no process ran runs once at the next start, not once per missed time", async () => {
      const open = adapter.scope();
      const key = freshKey();
      const first = open();
      const firedBefore = recorder(first, key);
      await first.repeat("sweep", { kind: "approvals" }, { key, cron: EVERY_SECOND });
      await first.start();
      await waitFor(() => firedBefore.length >= 1, "a fire before the stop");
      await first.close({ graceMs: 5_000 });
      await tick(3_200); // three fire times pass with nobody running

      const second = open();
      const firedAfter = recorder(second, key);
      const restartedAt = Date.now();
      try {
        await second.repeat("sweep", { kind: "approvals" }, { key, cron: EVERY_SECOND });
        await second.start();
        await waitFor(() => firedAfter.length >= 2, "fires after the restart");
        const missed = firedAfter.filter((id) => fireTime(id) < restartedAt - 1000);
        assert.equal(missed.length, 1, `missed fires that ran: ${missed.join(", ")}`);
        const all = [...firedBefore, ...firedAfter];
        assert.equal(new Set(all).size, all.length);
      } finally {
        await second.close();
      }
    });
  });
}
