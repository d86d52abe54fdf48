import { performance } from "node:perf_hooks";
import { registerAgentJobs } from "../../../agent/register-jobs.ts";
import { createEventBus } from "../../../jobs/events/create.ts";
import { createQueue } from "../../../jobs/queue/create.ts";
import { executionFinished } from "../../../store/domain-events.ts";
import { startAgentHarness } from "../../agent/agent-harness.ts";
import { deleteRedisKeys, redisTestPrefix, redisTestUrl } from "../../redis.ts";
import { match } from "../../scripted-model/index.ts";

const RUNS = 30;
const WARMUP = 3;

/**
 * continuation_ms_p50: an execution of a session with an approved plan finishes (row marked completed,
 * execution.finished published) → the next model request reaches the scripted model server. Runs the
 * real path: event bus → `continue` job on the queue (BullMQ and Redis pub/sub when REDIS_URL is set)
 * → turn lease → prompt assembly → openai SDK → HTTP.
 */
export default async function continuationBench(): Promise<Record<string, number>> {
  const redisUrl = redisTestUrl();
  const prefix = redisTestPrefix(import.meta.url);
  const queue = await createQueue({ redisUrl, prefix });
  const events = await createEventBus({ redisUrl, prefix });
  const h = await startAgentHarness({
    queue,
    events,
    script: [
      {
        name: "resume",
        when: match.lastSystemNote(/^Execution finished/),
        reply: { text: "ok" },
        times: Number.POSITIVE_INFINITY,
      },
    ],
  });
  const samples: number[] = [];
  try {
    registerAgentJobs({ queue, events }, h.deps, { concurrency: 4 });
    await queue.start();
    for (let i = 0; i < RUNS + WARMUP; i++) {
      const { sessionId, executionId } = await approvedSessionWithRunningExecution(h, i);
      const before = h.model.requests.length;
      const t0 = performance.now();
      await h.store.db
        .updateTable("executions")
        .set({ status: "completed", exit_code: 0, stdout: "ok", finished_at: new Date(), duration_ms: 5 })
        .where("id", "=", executionId)
        .execute();
      await events.publish(
        executionFinished({ id: executionId, session_id: sessionId, step_seq: null }, "completed"),
      );
      const requests = await h.model.waitForRequests(before + 1, 10_000);
      if (i >= WARMUP) samples.push(requests[before]!.receivedAtMono - t0);
      await waitForTurnEnd(h, sessionId);
    }
  } finally {
    await h.close();
    if (redisUrl) await deleteRedisKeys(redisUrl, prefix);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return {
    continuation_ms_p50: Math.round(at(0.5) * 10) / 10,
    continuation_ms_p95: Math.round(at(0.95) * 10) / 10,
    continuation_redis: redisUrl ? 1 : 0,
  };
}

type Harness = Awaited<ReturnType<typeof startAgentHarness>>;

async function approvedSessionWithRunningExecution(h: Harness, i: number) {
  const sessionId = await h.newSession();
  await h.store.db
    .updateTable("sessions")
    .set({ status: "executing", goal: "bench", plan_generation: 1 })
    .where("id", "=", sessionId)
    .execute();
  await h.store.db
    .insertInto("plans")
    .values({
      session_id: sessionId,
      generation: 1,
      status: "approved",
      needs_approval: true,
      decided_by: "op",
      decided_via: "reaction",
      decided_at: new Date(),
      card_ref: null,
    })
    .execute();
  await h.store.db
    .insertInto("plan_steps")
    .values(
      [1, 2].map((seq) => ({
        session_id: sessionId,
        generation: 1,
        seq,
        title: `step ${seq}`,
        status: seq === 1 ? "running" : "pending",
        target: null,
        risk: "config_mutation",
        note: null,
        execution_id: null,
        replaced_reason: null,
        started_at: null,
        finished_at: null,
      })),
    )
    .execute();
  await h.say(sessionId, "go ahead");
  const executionId = `ex-bench-${i}-${sessionId.slice(0, 6)}`;
  await h.store.db
    .insertInto("executions")
    .values({
      id: executionId,
      session_id: sessionId,
      plan_generation: 1,
      step_seq: 1,
      target: "local",
      command: "true",
      command_key: executionId,
      risk: "config_mutation",
      purpose: "bench",
      status: "running",
      requested_by: "agent",
      timeout_ms: 60_000,
    })
    .execute();
  return { sessionId, executionId };
}

async function waitForTurnEnd(h: Harness, sessionId: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const row = await h.store.db
      .selectFrom("sessions")
      .select("turn_owner")
      .where("id", "=", sessionId)
      .executeTakeFirst();
    if (row?.turn_owner === null) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
