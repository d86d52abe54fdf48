import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { test } from "node:test";
import type { Redis } from "ioredis";
import { isRedisConnectionError, RedisOutage } from "./redis-outage.ts";

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" });

test("a Redis outage is told once as a warning and its end once; other errors are left to the caller", () => {
  const lines: { level: string; message: string }[] = [];
  const logger = {
    warn: (_: object, message: string) => lines.push({ level: "warn", message }),
    info: (_: object, message: string) => lines.push({ level: "info", message }),
  };
  const outage = new RedisOutage("queue", logger);
  const connection = new EventEmitter();
  outage.watch(connection as unknown as Redis);
  for (let attempt = 0; attempt < 50; attempt++) assert.ok(outage.error(refused()));
  assert.ok(outage.error(new Error("Connection is closed.")));
  connection.emit("ready");
  connection.emit("ready");
  assert.deepEqual(
    lines.map((l) => l.level),
    ["warn", "info"],
  );
  assert.match(lines[0]!.message, /queue: Redis is unreachable/);
  assert.equal(outage.error(new Error("ERR wrong number of arguments")), false, "not an outage");
  assert.ok(outage.error(refused()), "a second outage");
  assert.equal(lines.length, 3, "told again, once");
});

test("without a logger every error goes to the caller's report, as before", () => {
  assert.equal(new RedisOutage("events", undefined).error(refused()), false);
  assert.ok(isRedisConnectionError(refused()));
  assert.ok(!isRedisConnectionError("ECONNREFUSED"));
});
