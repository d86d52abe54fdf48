import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { appendMessage } from "../store/messages.ts";
import { call } from "../test-support/agent/script.ts";
import { GITEA, harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { BUDGET_SPENT_NOTE } from "./operator-hold.ts";
import { requestTurn } from "./turn-runner.ts";

type Harness = ReturnType<ReturnType<typeof harnessForSuite>>;

function messagesTo(h: Harness, sessionId: string) {
  return h.published.flatMap((e) =>
    e.type === "agent.message" && e.sessionId === sessionId ? [e.text] : [],
  );
}

async function toolResults(h: Harness, sessionId: string) {
  const rows = await h.store.db
    .selectFrom("messages")
    .select(["content"])
    .where("session_id", "=", sessionId)
    .where("role", "=", "tool")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.content);
}

describe("a turn's budget bounds a careless model even when every refusal is new", () => {
  const harness = harnessForSuite({
    entities: [GITEA],
    agent: { maxIterations: 12, maxToolCallsPerTurn: 5, maxRefusalsPerTurn: 3 },
  });

  test("a different refusal each time: the turn ends at the refusal budget, oikos tells the operator", async () => {
    const h = harness();
    let n = 0;
    await h.useScript([
      {
        name: "another",
        when: match.always(),
        reply: () => call("run", { target: `lxc:missing-${++n}`, command: "uptime", purpose: "x" }),
        times: Number.POSITIVE_INFINITY,
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "check everything");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
      status: "ran",
      turns: ["budget_spent"],
    });
    assert.equal(h.model.requests.length, 3, "no model call after the third refusal");
    const told = messagesTo(h, sessionId);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /refused 3 of my calls.*model\.maxRefusalsPerTurn/);
    assert.match(told[0]!, /lxc:missing-3/);
    assert.match(told[0]!, /reply "continue"/);
    const note = await h.store.db
      .selectFrom("messages")
      .select("content")
      .where("session_id", "=", sessionId)
      .where("name", "=", BUDGET_SPENT_NOTE)
      .execute();
    assert.equal(note.length, 1);
    // a result arriving meanwhile calls no model; the operator's reply does
    await appendMessage(h.store.db, {
      sessionId,
      role: "system",
      content: "Execution finished: ex-x",
      name: "execution:ex-x",
      author: "oikos",
    });
    assert.deepEqual(await requestTurn(h.deps, sessionId, "continue"), { status: "idle" });
    assert.equal(h.model.requests.length, 3);
    await h.say(sessionId, "continue");
    await requestTurn(h.deps, sessionId, "message");
    assert.equal(h.model.requests.length, 6, "a fresh budget after the operator's word");
  });

  test("tool calls: the calls beyond the budget are not run, and the turn ends there", async () => {
    const h = harness();
    await h.useScript([
      {
        name: "three at once",
        when: match.always(),
        reply: {
          toolCalls: [
            { name: "list_entities", arguments: { type: "lxc" } },
            { name: "list_entities", arguments: { type: "host" } },
            { name: "list_entities", arguments: { type: "vm" } },
          ],
        },
        times: Number.POSITIVE_INFINITY,
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "list everything");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
      status: "ran",
      turns: ["budget_spent"],
    });
    assert.equal(h.model.requests.length, 2);
    const results = await toolResults(h, sessionId);
    assert.equal(results.length, 6, "every call has a result");
    assert.equal(results.filter((r) => r.startsWith("Not run: this turn's budget")).length, 1);
    const told = messagesTo(h, sessionId);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /made 5 tool calls, the most one turn may make \(model\.maxToolCallsPerTurn\)/);
  });
});
