import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../test-support/redis.ts";
import { BullmqQueue } from "./bullmq.ts";
import type { InterruptedJob } from "./port.ts";

const CHILD = fileURLToPath(new URL("../../test-support/jobs/queue/bullmq-crash-child.ts", import.meta.url));
const redisUrl = redisTestUrl();
const prefix = redisTestPrefix(import.meta.url);

after(async () => {
  if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
});

test("BullMQ worker killed with -9: its job stalls and is recorded interrupted, not re-run; waiting jobs run", {
  skip: redisUrl ? false : "BullMQ adapter skipped: REDIS_URL is not set",
  timeout: 60_000,
}, async () => {
  const child = spawn(process.execPath, [CHILD, redisUrl!, prefix], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout }).on("line", (text) => {
    if ((JSON.parse(text) as { started?: string }).started === "exec-long") child.kill("SIGKILL");
  });
  const signal = await new Promise((resolve) => child.on("close", (_code, sig) => resolve(sig)));
  assert.equal(signal, "SIGKILL", `child ended without the kill: ${stderr}`);

  const ran: string[] = [];
  const interrupted: InterruptedJob<{ executionId: string }>[] = [];
  let settle: () => void = () => {};
  const bothSeen = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const check = () => {
    if (ran.includes("exec-w1") && interrupted.length > 0) settle();
  };
  const queue = new BullmqQueue({
    redisUrl: redisUrl!,
    prefix,
    lockDurationMs: 1_000,
    stalledIntervalMs: 300,
    onError: () => {},
  });
  try {
    queue.register(
      "execute",
      async (job) => {
        ran.push(job.id);
        check();
      },
      {
        onInterrupted: async (job) => {
          interrupted.push(job);
          check();
        },
      },
    );
    await queue.start();
    await bothSeen;
    assert.deepEqual(ran, ["exec-w1"]);
    assert.deepEqual(
      interrupted.map((j) => [j.id, j.data]),
      [["exec-long", { executionId: "long" }]],
    );
    assert.match(interrupted[0]!.reason, /worker stopped/);
  } finally {
    await queue.close();
  }
});
