import assert from "node:assert/strict";
import { test } from "node:test";
import { backoffDelay, retryWithBackoff } from "./retry.ts";

test("backoff doubles per try from the base, capped", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => backoffDelay(1000, n)),
    [1000, 2000, 4000, 8000, 16000],
  );
  assert.equal(backoffDelay(1000, 0), 1000);
  assert.equal(backoffDelay(1000, 10, 30_000), 30_000);
});

test("retries what retryAfter allows, waiting the asked time or the backoff, up to the attempts", async () => {
  const waits: number[] = [];
  const tries: number[] = [];
  const result = await retryWithBackoff(
    async (attempt) => {
      tries.push(attempt);
      if (attempt === 1) throw { asked: 0 };
      if (attempt === 2) throw { asked: 50_000 };
      return "sent";
    },
    { attempts: 5, baseDelayMs: 100, maxDelayMs: 20_000, sleep: async (ms) => void waits.push(ms) },
    (error) => (error as { asked: number }).asked,
  );
  assert.equal(result, "sent");
  assert.deepEqual(tries, [1, 2, 3]);
  assert.deepEqual(waits, [100, 20_000], "the backoff first, then the asked wait capped");
});

test("an error retryAfter refuses, or the last try's error, is thrown", async () => {
  let tries = 0;
  const fatal = new Error("fatal");
  await assert.rejects(
    retryWithBackoff(
      async () => {
        tries++;
        throw fatal;
      },
      { attempts: 5, baseDelayMs: 1, sleep: async () => {} },
      () => undefined,
    ),
    fatal,
  );
  assert.equal(tries, 1);
  tries = 0;
  await assert.rejects(
    retryWithBackoff(
      async (attempt) => {
        tries++;
        throw new Error(`try ${attempt}`);
      },
      { attempts: 3, baseDelayMs: 1, sleep: async () => {} },
      () => 0,
    ),
    /try 3/,
  );
  assert.equal(tries, 3);
});
