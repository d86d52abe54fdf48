import assert from "node:assert/strict";
import { test } from "node:test";
import { KeyedSemaphore } from "./keyed-semaphore.ts";

test("at most `limit` holders per key, waiters served in order, other keys unaffected", async () => {
  const idle: string[] = [];
  const semaphore = new KeyedSemaphore(2, { onIdle: (key) => idle.push(key) });
  const a1 = (await semaphore.acquire("a"))!;
  const a2 = (await semaphore.acquire("a"))!;
  const b1 = (await semaphore.acquire("b"))!;
  const order: string[] = [];
  const a3 = semaphore.acquire("a").then((release) => {
    order.push("a3");
    return release!;
  });
  const a4 = semaphore.acquire("a").then((release) => {
    order.push("a4");
    return release!;
  });
  await Promise.resolve();
  assert.deepEqual(order, []);
  assert.equal(semaphore.held("a"), 2);
  assert.equal(semaphore.waiting("a"), 2);
  a1();
  a1(); // releasing twice frees one place only
  const release3 = await a3;
  assert.deepEqual(order, ["a3"]);
  assert.equal(semaphore.held("a"), 2, "the place passed over, not freed");
  a2();
  const release4 = await a4;
  assert.deepEqual(order, ["a3", "a4"]);
  release3();
  assert.deepEqual(idle, []);
  release4();
  b1();
  assert.deepEqual(idle, ["a", "b"]);
  assert.equal(semaphore.held("a"), 0);
  assert.equal(semaphore.held("b"), 0);
});

test("an aborted waiter leaves the line without taking a place; an aborted signal takes none", async () => {
  const semaphore = new KeyedSemaphore(1);
  const first = (await semaphore.acquire("a"))!;
  const controller = new AbortController();
  const waiting = semaphore.acquire("a", controller.signal);
  assert.equal(semaphore.waiting("a"), 1);
  controller.abort(new Error("shutdown"));
  assert.equal(await waiting, null);
  assert.equal(semaphore.waiting("a"), 0);
  first();
  assert.equal(semaphore.held("a"), 0);
  assert.equal(await semaphore.acquire("b", controller.signal), null);
  assert.equal(semaphore.held("b"), 0);
  const again = (await semaphore.acquire("a"))!;
  assert.equal(semaphore.held("a"), 1);
  again();
});

test("a limit below one is refused", () => {
  assert.throws(() => new KeyedSemaphore(0), RangeError);
});
