import assert from "node:assert/strict";
import { test } from "node:test";
import { isDatabaseUnreachable, untilReachable } from "./unreachable.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test("a restarting or unreachable Postgres is an outage; a constraint or syntax error is not", () => {
  for (const outage of [
    withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
    withCode("terminating connection due to administrator command", "57P01"),
    withCode("the database system is shutting down", "57P03"),
    withCode("connection failure", "08006"),
    new Error("Connection terminated unexpectedly"),
  ])
    assert.ok(isDatabaseUnreachable(outage), outage.message);
  for (const fact of [
    withCode("duplicate key value violates unique constraint", "23505"),
    withCode('syntax error at or near "SELEC"', "42601"),
    new Error("execution 42 does not exist"),
    "ECONNREFUSED",
  ])
    assert.ok(!isDatabaseUnreachable(fact), String(fact));
});

test("untilReachable waits an outage out, says so once, and throws any other error at once", async () => {
  let calls = 0;
  const told: unknown[] = [];
  const slept: number[] = [];
  const value = await untilReachable(
    async () => {
      calls++;
      if (calls < 4) throw withCode("connect ECONNREFUSED", "ECONNREFUSED");
      return "stored";
    },
    { onOutage: (error) => told.push(error), sleep: async (ms) => void slept.push(ms) },
  );
  assert.equal(value, "stored");
  assert.equal(calls, 4);
  assert.equal(told.length, 1, "the outage is told once");
  assert.deepEqual(slept, [200, 400, 800], "with backoff");

  let other = 0;
  await assert.rejects(
    untilReachable(async () => {
      other++;
      throw withCode("duplicate key", "23505");
    }),
    /duplicate key/,
  );
  assert.equal(other, 1, "not retried");

  await assert.rejects(
    untilReachable(
      async () => {
        throw withCode("connect ECONNREFUSED", "ECONNREFUSED");
      },
      { maxMs: 0, sleep: async () => {} },
    ),
    /ECONNREFUSED/,
    "gives up after maxMs",
  );
});
