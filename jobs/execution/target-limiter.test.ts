import assert from "node:assert/strict";
import { test } from "node:test";
import { TargetLimiter } from "./target-limiter.ts";

test("at most `limit` holders per target, waiters served in order, other targets unaffected", async () => {
  const limiter = new TargetLimiter(2);
  const a1 = await limiter.acquire("a");
  const a2 = await limiter.acquire("a");
  const b1 = await limiter.acquire("b");
  const order: string[] = [];
  const a3 = limiter.acquire("a").then((release) => {
    order.push("a3");
    return release;
  });
  const a4 = limiter.acquire("a").then((release) => {
    order.push("a4");
    return release;
  });
  await Promise.resolve();
  assert.deepEqual(order, []);
  assert.equal(limiter.active("a"), 2);
  a1();
  a1(); // releasing twice frees one slot only
  const release3 = await a3;
  assert.deepEqual(order, ["a3"]);
  a2();
  const release4 = await a4;
  assert.deepEqual(order, ["a3", "a4"]);
  release3();
  release4();
  b1();
  assert.equal(limiter.active("a"), 0);
  assert.equal(limiter.active("b"), 0);
});

test("an aborted waiter leaves the line without taking a slot", async () => {
  const limiter = new TargetLimiter(1);
  const first = await limiter.acquire("a");
  const controller = new AbortController();
  const waiting = limiter.acquire("a", controller.signal);
  controller.abort(new Error("shutdown"));
  await assert.rejects(waiting, /shutdown/);
  first();
  assert.equal(limiter.active("a"), 0);
  const again = await limiter.acquire("a");
  assert.equal(limiter.active("a"), 1);
  again();
});
