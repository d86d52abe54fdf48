import assert from "node:assert/strict";
import { after as afterAll, before, describe, test } from "node:test";
import { listMessages } from "../store/messages.ts";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";
import { after, call } from "../test-support/agent/script.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { createOpenAiModel } from "./openai-model.ts";
import { requestTurn } from "./turn-runner.ts";

describe("agent loop: model faults, bounded turns, one turn per session", () => {
  let h: AgentHarness;
  before(async () => {
    h = await startAgentHarness({ agent: { maxIterations: 3, historyLimit: 6 } });
  });
  afterAll(async () => {
    await h.close();
  });

  test("three empty responses: the operator is told, the session stays resumable, 'continue' resumes", async () => {
    await h.useScript([
      { name: "empty", when: match.lastUserMessage("status of gitea"), reply: { fault: "empty" }, times: 3 },
      { name: "resumed", when: match.lastUserMessage("continue"), reply: { text: "gitea is up." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "status of gitea?");
    const first = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(first, { status: "ran", turns: ["model_failed"] });
    assert.equal(h.model.requests.length, 3);
    assert.match(JSON.stringify(h.model.requests[1]!.body.messages.at(-1)), /previous reply was empty/);
    assert.match(JSON.stringify(h.model.requests[2]!.body.messages.at(-1)), /Last attempt/);
    const session = await h.store.db
      .selectFrom("sessions")
      .selectAll()
      .where("id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(session.status, "planning", "not failed");
    const told = h.published.find((e) => e.type === "agent.message" && e.sessionId === sessionId);
    assert.ok(told && told.type === "agent.message" && /paused, not failed/.test(told.text));
    await h.say(sessionId, "continue");
    const second = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(second, { status: "ran", turns: ["answered"] });
    assert.deepEqual(h.model.unmatched, []);
  });

  test("429 and 500 are retried; token usage is recorded per call", async () => {
    await h.useScript([
      { name: "limited", when: match.lastUserMessage("hello"), reply: { fault: "http", status: 429 } },
      { name: "broken", when: match.lastUserMessage("hello"), reply: { fault: "http", status: 500 } },
      {
        name: "ok",
        when: match.lastUserMessage("hello"),
        reply: { text: "Hi.", usage: { prompt_tokens: 100, completion_tokens: 5 } },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "hello");
    const result = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(result, { status: "ran", turns: ["answered"] });
    const usage = await h.store.db
      .selectFrom("token_usage")
      .selectAll()
      .where("session_id", "=", sessionId)
      .execute();
    assert.deepEqual(
      usage.map((u) => u.total_tokens),
      [105],
    );
  });

  test("malformed tool arguments come back as a correctable tool error", async () => {
    await h.useScript([
      {
        name: "broken-json",
        when: match.lastUserMessage("set a goal"),
        reply: call("set_goal", '{"goal": "fix gitea"'),
      },
      {
        name: "fixed",
        when: after("set_goal", "not valid JSON"),
        reply: call("set_goal", { goal: "fix gitea" }),
      },
      { name: "said", when: after("set_goal", "Goal set"), reply: { text: "Goal recorded." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "set a goal");
    await requestTurn(h.deps, sessionId, "message");
    const session = await h.store.db
      .selectFrom("sessions")
      .selectAll()
      .where("id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(session.goal, "fix gitea");
    assert.deepEqual(h.model.unmatched, []);
  });

  test("iterations are bounded and end with a no-tools status report", async () => {
    await h.useScript([
      {
        name: "loop",
        when: match.toolsOffered(true),
        reply: call("whoami"),
        times: Number.POSITIVE_INFINITY,
      },
      { name: "report", when: match.toolsOffered(false), reply: { text: "Status: still looking." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "look around");
    const result = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(result, { status: "ran", turns: ["exhausted"] });
    assert.equal(h.model.requests.length, 4);
    assert.equal(h.model.requests[3]!.step, "report");
    const final = h.published.filter((e) => e.type === "agent.message").at(-1);
    assert.ok(final?.type === "agent.message" && final.final);
    assert.match(
      final.text,
      /^Status: still looking\.\n\n\(oikos stopped this turn after 3 rounds .*model\.maxIterations/,
    );
    // Bounded history: the last request replays at most historyLimit messages plus the omission note.
    const replayed = h.model.requests[3]!.body.messages;
    assert.match(JSON.stringify(replayed), /older messages of this session are not shown/);
    assert.ok((await listMessages(h.store.db, sessionId)).length > 6);
  });

  test("concurrent turn requests for one session never overlap: they merge into one running turn", async () => {
    // The first reply is held until both later requests have come back "merged": no guessing how long that takes.
    const firstReply = Promise.withResolvers<void>();
    await h.useScript([
      {
        name: "slow",
        when: match.lastUserMessage("first"),
        reply: { text: "Answer to first.", hold: firstReply.promise },
      },
      {
        name: "merged",
        when: match.lastUserMessage("second"),
        reply: { text: "Answer to second." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "first question");
    const firstTurn = requestTurn(h.deps, sessionId, "message");
    await h.model.waitForRequests(1);
    await h.say(sessionId, "second question");
    const later = await Promise.all([
      requestTurn(h.deps, sessionId, "message"),
      requestTurn(h.deps, sessionId, "message"),
    ]);
    assert.deepEqual(later, [{ status: "merged" }, { status: "merged" }]);
    firstReply.resolve();
    assert.deepEqual(await firstTurn, { status: "ran", turns: ["answered", "answered"] });
    assert.equal(h.model.peakConcurrency, 1);
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["slow", "merged"],
    );
    const holder = await h.store.db
      .selectFrom("sessions")
      .select(["turn_owner", "turn_pending"])
      .where("id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(holder, { turn_owner: null, turn_pending: false });
  });

  test("a model call that times out is retried", async () => {
    await h.useScript([
      // Only the first reply hangs, until the client gives up; the retry answers at once.
      {
        name: "hangs",
        when: match.lastUserMessage("slow"),
        reply: { text: "too late", hold: new Promise(() => {}) },
      },
      { name: "answers", when: match.lastUserMessage("slow"), reply: { text: "In time." } },
    ]);
    const patient = h.deps.model;
    h.deps.model = createOpenAiModel({
      baseUrl: h.model.url,
      apiKey: "t",
      model: "scripted",
      // Long enough for the retry's real round trip on a loaded machine; the hanging reply never answers anyway.
      timeoutMs: 3_000,
    });
    try {
      const sessionId = await h.newSession();
      await h.say(sessionId, "slow question");
      assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
        status: "ran",
        turns: ["answered"],
      });
      assert.deepEqual(
        h.model.requests.map((r) => r.step),
        ["hangs", "answers"],
      );
    } finally {
      h.deps.model = patient;
    }
  });
});
