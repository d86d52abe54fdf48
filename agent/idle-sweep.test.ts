import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runSweeps } from "../jobs/sweeps/registry.ts";
import { after, call, goalThenPlan } from "../test-support/agent/script.ts";
import { sessionFeedback, sessionRow, turnReleased } from "../test-support/agent/session-queries.ts";
import { harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { IDLE_MS, registerIdleSweep, sweepIdleSessions } from "./idle-sweep.ts";
import { requestTurn } from "./turn-runner.ts";

describe("idle sweep: a forgotten complete_task is nudged once, then closed as partial", () => {
  const harness = harnessForSuite({ agentJobs: true });

  const sweep = (at: Date) => {
    const h = harness();
    return sweepIdleSessions({ db: h.store.db, events: h.events, queue: h.queue, now: at });
  };
  const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

  test("executing session idle: one nudge turn, then closed as partial with a visible note", async () => {
    const h = harness();
    await h.useScript([
      ...goalThenPlan("disk", "Check disk usage", [{ title: "Read df", risk: "read_only" }]),
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
    const status = () => sessionRow(h, sessionId);
    assert.equal((await status()).status, "executing");

    assert.deepEqual(await sweep(minutesFromNow(1)), [], "not idle yet");
    const first = await sweep(new Date(Date.now() + IDLE_MS + 1000));
    assert.deepEqual(first, [
      { subject: `session:${sessionId}`, outcome: "changed", detail: "idle: nudge turn enqueued" },
    ]);
    await h.model.waitForRequests(4);
    assert.equal(h.model.requests[3]!.step, "nudged");
    await turnReleased(h, sessionId);
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
    assert.equal((await sessionFeedback(h, sessionId)).length, 1);
    assert.deepEqual(h.model.unmatched, []);
  });

  test("sessions waiting for an approval or an answer are never closed", async () => {
    const h = harness();
    await h.useScript([
      ...goalThenPlan("restart", "Restart nginx", [{ title: "Restart nginx", risk: "config_mutation" }]),
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

describe("idle sweep: a turn owed by a process that is gone is resumed without a restart", () => {
  const harness = harnessForSuite({ agentJobs: true });

  /** A turn held by a process on another machine that stopped renewing its lease at `expiresAt`. */
  const heldByRemoteWorker = (sessionId: string, expiresAt: Date) =>
    harness()
      .store.db.updateTable("sessions")
      .set({ turn_owner: "other-host:4242:0badf00d:turn", turn_expires_at: expiresAt })
      .where("id", "=", sessionId)
      .execute();

  const idleSweep = async () => {
    const h = harness();
    registerIdleSweep();
    const [report] = await runSweeps("idle", {
      db: h.store.db,
      events: h.events,
      queue: h.queue,
      now: new Date(),
      heartbeatStaleMs: 60_000,
    });
    return report!.items;
  };

  test("a dead remote worker's lease ran out: one sweep resumes the turn once, said once", async () => {
    const h = harness();
    await h.useScript([
      { name: "answer", when: match.lastUserMessage("disk"), reply: { text: "The disk is at 40%." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "how full is the disk?");
    await heldByRemoteWorker(sessionId, new Date(Date.now() + 60_000));
    assert.deepEqual(await idleSweep(), [], "a live lease is never taken over");

    await heldByRemoteWorker(sessionId, new Date(Date.now() - 1000));
    assert.deepEqual(await idleSweep(), [
      { subject: `session:${sessionId}`, outcome: "changed", detail: "owed turn: resume enqueued" },
    ]);
    await turnReleased(h, sessionId);
    await h.model.waitForRequests(1);
    assert.deepEqual(await idleSweep(), [], "resumed once: the next sweep finds nothing owed");
    assert.equal(h.model.requests.length, 1);
    assert.equal(h.model.requests[0]!.step, "answer");
    const notices = h.published.filter(
      (e) => e.type === "agent.message" && e.text.startsWith("oikos restarted; resuming"),
    );
    assert.equal(notices.length, 1, "the operator is told once");
  });
});
