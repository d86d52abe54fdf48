import assert from "node:assert/strict";
import { after as afterAll, before, describe, test } from "node:test";
import { createQueue } from "../jobs/queue/create.ts";
import type { QueuePort } from "../jobs/queue/port.ts";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";
import { waitFor } from "../test-support/agent/wait-for.ts";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../test-support/redis.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { registerAgentJobs } from "./register-jobs.ts";

const redisUrl = redisTestUrl();

describe(`agent-turn jobs on the ${redisUrl ? "BullMQ" : "in-process"} queue`, () => {
  let h: AgentHarness;
  let queue: QueuePort;
  const prefix = redisTestPrefix(import.meta.url);
  before(async () => {
    queue = await createQueue({ redisUrl, prefix });
    h = await startAgentHarness({ queue });
    registerAgentJobs({ queue, events: h.events }, h.deps, { concurrency: 4 });
    await queue.start();
  });
  afterAll(async () => {
    await h.close();
    if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
  });

  test("three turn jobs for one session at once: one model call at a time, merged into one turn", async () => {
    // The reply is held until another job has merged into the running turn (turn_pending), then released.
    const reply = Promise.withResolvers<void>();
    await h.useScript([
      {
        name: "answer",
        when: match.lastUserMessage("third"),
        reply: { text: "All three answered.", hold: reply.promise },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "first");
    await h.say(sessionId, "second");
    await h.say(sessionId, "third");
    await Promise.all([1, 2, 3].map(() => queue.enqueue("agent-turn", { sessionId, reason: "message" })));
    await h.model.waitForRequests(1);
    await waitFor(async () => {
      const row = await h.store.db
        .selectFrom("sessions")
        .select(["turn_pending"])
        .where("id", "=", sessionId)
        .executeTakeFirst();
      return row?.turn_pending === true;
    });
    reply.resolve();
    await waitFor(async () => {
      const row = await h.store.db
        .selectFrom("sessions")
        .select(["turn_owner"])
        .where("id", "=", sessionId)
        .executeTakeFirst();
      const answered = await h.store.db
        .selectFrom("messages")
        .select("id")
        .where("session_id", "=", sessionId)
        .where("role", "=", "assistant")
        .executeTakeFirst();
      return row?.turn_owner === null && answered !== undefined;
    });
    assert.equal(h.model.peakConcurrency, 1);
    assert.equal(h.gateway.listCalls, 1, "tools/list once per MCP session, then cached");
    assert.equal(h.model.requests.length, 1);
    assert.deepEqual(h.model.unmatched, []);
  });
});
