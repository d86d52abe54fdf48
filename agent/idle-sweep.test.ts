import assert from "node:assert/strict";
import { after as afterAll, before, describe, test } from "node:test";
import { InProcessQueue } from "../jobs/queue/in-process.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { IDLE_MS, sweepIdleSessions } from "./idle-sweep.ts";
import { registerAgentJobs } from "./register-jobs.ts";
import { type AgentHarness, startAgentHarness } from "./testing/agent-harness.ts";
import { after, call } from "./testing/script.ts";
import { waitFor } from "./testing/wait-for.ts";
import { requestTurn } from "./turn-runner.ts";

describe("idle sweep: a forgotten complete_task is nudged once, then closed as partial", () => {
  let h: AgentHarness;
  let queue: InProcessQueue;
  before(async () => {
    queue = new InProcessQueue();
    h = await startAgentHarness({ queue });
    registerAgentJobs({ queue, events: h.events }, h.deps);
    await queue.start();
  });
  afterAll(async () => {
    await h.close();
  });

  const sweep = (at: Date) => sweepIdleSessions({ db: h.store.db, events: h.events, queue, now: at });
  const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

  test("executing session idle: one nudge turn, then closed as partial with a visible note", async () => {
    await h.useScript([
      {
        name: "goal",
        when: match.lastUserMessage("disk"),
        reply: call("set_goal", { goal: "Check disk usage" }),
      },
      {
        name: "plan",
        when: after("set_goal"),
        reply: call("propose_plan", { steps: [{ title: "Read df", risk: "read_only" }] }),
      },
      { name: "forgets", when: after("propose_plan"), reply: { text: "Disk is at 40%. All good." } },
      {
        name: "nudged",
        when: match.lastSystemNote(/^Nudge:/),
        reply: { text: "As I said, the disk is fine." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "how full is the disk?");
    await requestTurn(h.deps, sessionId, "message");
    const status = async () =>
      h.store.db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirstOrThrow();
    assert.equal((await status()).status, "executing");

    assert.deepEqual(await sweep(minutesFromNow(1)), [], "not idle yet");
    const first = await sweep(new Date(Date.now() + IDLE_MS + 1000));
    assert.deepEqual(first, [
      { subject: `session:${sessionId}`, outcome: "changed", detail: "idle: nudge turn enqueued" },
    ]);
    await h.model.waitForRequests(4);
    assert.equal(h.model.requests[3]!.step, "nudged");
    await waitFor(async () => (await status()).turn_owner === null);
    const nudgedAt = (await status()).nudged_at!;
    assert.deepEqual(
      await sweep(new Date(nudgedAt.getTime() + 1000)),
      [],
      "one nudge only, and no close before a second idle period",
    );

    const second = await sweep(new Date(nudgedAt.getTime() + IDLE_MS + 1000));
    assert.deepEqual(second, [
      { subject: `session:${sessionId}`, outcome: "changed", detail: "idle: closed as partial" },
    ]);
    const closed = await status();
    assert.equal(closed.status, "done");
    assert.equal(closed.outcome, "partial");
    assert.match(closed.summary!, /Last word from the agent: As I said, the disk is fine\./);
    const note = h.published.find(
      (e) => e.type === "agent.message" && /closed this task as partial/.test(e.text),
    );
    assert.ok(note);
    const feedback = await h.store.db
      .selectFrom("feedback")
      .selectAll()
      .where("session_id", "=", sessionId)
      .execute();
    assert.equal(feedback.length, 1);
    assert.deepEqual(h.model.unmatched, []);
  });

  test("sessions waiting for an approval or an answer are never closed", async () => {
    await h.useScript([
      {
        name: "goal",
        when: match.lastUserMessage("restart"),
        reply: call("set_goal", { goal: "Restart nginx" }),
      },
      {
        name: "plan",
        when: after("set_goal"),
        reply: call("propose_plan", { steps: [{ title: "Restart nginx", risk: "config_mutation" }] }),
      },
      {
        name: "ask",
        when: match.lastUserMessage("which"),
        reply: call("ask_operator", { prompt: "Fix in place or migrate?", options: ["fix", "migrate"] }),
      },
    ]);
    const awaitingApproval = await h.newSession();
    await h.say(awaitingApproval, "restart nginx");
    await requestTurn(h.deps, awaitingApproval, "message");
    const awaitingInput = await h.newSession();
    await h.say(awaitingInput, "which way should we go?");
    await requestTurn(h.deps, awaitingInput, "message");
    const later = minutesFromNow(60);
    assert.deepEqual(await sweep(later), []);
    assert.deepEqual(await sweep(new Date(later.getTime() + 2 * IDLE_MS)), []);
    const rows = await h.store.db
      .selectFrom("sessions")
      .select(["id", "status"])
      .where("id", "in", [awaitingApproval, awaitingInput])
      .orderBy("status")
      .execute();
    assert.deepEqual(rows.map((r) => r.status).sort(), ["awaiting_approval", "awaiting_input"]);
  });
});
