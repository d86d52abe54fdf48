import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KyselyJobJournal } from "../../store/queue-journal.ts";
import { createTestStore, defaultDialect, type TestStore } from "../../test-support/store.ts";
import { InvalidJobPayloadError } from "./errors.ts";
import { InProcessQueue } from "./in-process.ts";
import { createMemoryJobJournal, type JobJournal } from "./journal.ts";
import type { JobFailure } from "./port.ts";

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

const job = (id: string, data: unknown = { executionId: id }) => ({
  id,
  queue: "execute",
  data,
  maxAttempts: 3,
  backoffMs: 10,
  runAt: new Date(),
});

for (const { name, make } of journals) {
  describe(`job journal: ${name}`, () => {
    test("record keeps a live row, replaces a finished one; loadUnfinished returns waiting and active", async () => {
      const journal = make();
      await journal.record(job("j-live"));
      await journal.record({ ...job("j-live"), data: { executionId: "second" } });
      await journal.record(job("j-done"));
      await journal.markActive("j-done");
      await journal.markDone("j-done");
      await journal.record({ ...job("j-done"), data: { executionId: "again" } });
      await journal.record(job("j-active"));
      await journal.markActive("j-active");
      await journal.record(job("j-failed"));
      await journal.markFailed("j-failed", "boom", null);
      const rows = (await journal.loadUnfinished()).filter((r) => r.id.startsWith("j-"));
      const byId = Object.fromEntries(rows.map((r) => [r.id, [r.status, r.attempts, r.data]]));
      assert.deepEqual(byId, {
        "j-live": ["waiting", 0, { executionId: "j-live" }],
        "j-done": ["waiting", 0, { executionId: "again" }],
        "j-active": ["active", 1, { executionId: "j-active" }],
      });
    });

    test("a retry goes back to waiting at its run time; pruneFinished drops only old done rows", async () => {
      const journal = make();
      await journal.record(job("p-retry"));
      await journal.markActive("p-retry");
      const runAt = new Date(Date.now() + 60_000);
      await journal.markFailed("p-retry", "transient", { runAt });
      await journal.record(job("p-done"));
      await journal.markDone("p-done");
      const retry = (await journal.loadUnfinished()).find((r) => r.id === "p-retry");
      assert.equal(retry?.status, "waiting");
      assert.equal(retry?.runAt.getTime(), runAt.getTime());
      assert.equal(await journal.pruneFinished(new Date(Date.now() - 60_000)), 0);
      assert.ok((await journal.pruneFinished(new Date(Date.now() + 60_000))) >= 1);
      assert.ok((await journal.loadUnfinished()).some((r) => r.id === "p-retry"));
    });

    test("a journaled payload that no longer validates fails unrecoverably at consume", async () => {
      const journal = make();
      await journal.record(job("bad-payload", { executionId: 7 }));
      const failures: { error: unknown; job: JobFailure }[] = [];
      let finalFailure: () => void = () => {};
      const failed = new Promise<void>((resolve) => {
        finalFailure = resolve;
      });
      const queue = new InProcessQueue({
        journal,
        onError: (error, failedJob) => {
          failures.push({ error, job: failedJob });
          if (failedJob.id === "bad-payload" && failedJob.final) finalFailure();
        },
      });
      // The kysely journal shares its database with the tests above: their live rows run too.
      const handled: string[] = [];
      queue.register("execute", async (queued) => {
        handled.push(queued.id);
      });
      try {
        await queue.start();
        await failed;
        assert.ok(!handled.includes("bad-payload"));
        const mine = failures.filter((f) => f.job.id === "bad-payload");
        assert.equal(mine.length, 1);
        assert.ok(mine[0]!.error instanceof InvalidJobPayloadError);
        assert.equal(mine[0]!.job.attempt, 1);
        assert.ok(!(await journal.loadUnfinished()).some((r) => r.id === "bad-payload"));
      } finally {
        await queue.close();
      }
    });
  });
}
