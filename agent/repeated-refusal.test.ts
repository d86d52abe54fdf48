import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { appendMessage } from "../store/messages.ts";
import { call } from "../test-support/agent/script.ts";
import { GITEA, harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { REPEATED_REFUSAL_NOTE } from "./operator-hold.ts";
import { requestTurn } from "./turn-runner.ts";

const DESTROYED = { slug: "lxc:old-wiki", type: "lxc", name: "old-wiki", state: "destroyed" as const };
const CHECK = "apt list --upgradable";

/** A model that ignores every refusal and sends `reply` again, whatever it is told. */
function careless(name: string, reply: ReturnType<typeof call>) {
  return [{ name, when: match.always(), reply, times: Number.POSITIVE_INFINITY }];
}

function messagesTo(h: ReturnType<ReturnType<typeof harnessForSuite>>, sessionId: string) {
  return h.published.flatMap((e) =>
    e.type === "agent.message" && e.sessionId === sessionId ? [e.text] : [],
  );
}

async function toolCalls(h: ReturnType<ReturnType<typeof harnessForSuite>>, sessionId: string) {
  const rows = await h.store.db
    .selectFrom("messages")
    .select(["tool_calls"])
    .where("session_id", "=", sessionId)
    .where("role", "=", "assistant")
    .execute();
  return rows.flatMap((r) => (r.tool_calls ?? []) as unknown as { name: string }[]);
}

describe("a turn that repeats a refused call ends there, with the refusal shown to the operator", () => {
  const harness = harnessForSuite({ entities: [GITEA, DESTROYED] });

  test("the same run refused the same way twice: two calls, two model calls, the operator told why", async () => {
    const h = harness();
    await h.useScript(
      careless("again", call("run", { target: "lxc:old-wiki", command: CHECK, purpose: "count updates" })),
    );
    const sessionId = await h.newSession();
    await h.say(sessionId, "audit pending updates");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
      status: "ran",
      turns: ["repeated_refusal"],
    });
    assert.equal(h.model.requests.length, 2, "no model call after the repeat");
    assert.equal((await toolCalls(h, sessionId)).length, 2);
    const told = messagesTo(h, sessionId);
    assert.equal(told.length, 1, told.join("\n---\n"));
    assert.match(told[0]!, /same `run` again/);
    assert.match(told[0]!, /lxc:old-wiki is destroyed/);
    // the model is told once, in the transcript, why its turn ended — and sees it on its next turn
    const notes = await h.store.db
      .selectFrom("messages")
      .select(["content"])
      .where("session_id", "=", sessionId)
      .where("name", "=", REPEATED_REFUSAL_NOTE)
      .execute();
    assert.equal(notes.length, 1);
    assert.match(notes[0]!.content, /target_not_runnable/);
    await h.say(sessionId, "ok, leave it");
    await requestTurn(h.deps, sessionId, "message");
    const next = h.model.requests.at(2)!;
    assert.ok(
      next.body.messages.some((m) => m.role === "system" && /oikos ended your turn/.test(String(m.content))),
    );
  });

  test("a reworded purpose is still the same call", async () => {
    const h = harness();
    let attempt = 0;
    await h.useScript([
      {
        name: "again",
        when: match.always(),
        reply: () => call("run", { target: "lxc:old-wiki", command: CHECK, purpose: `attempt ${++attempt}` }),
        times: Number.POSITIVE_INFINITY,
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "audit pending updates");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
      status: "ran",
      turns: ["repeated_refusal"],
    });
    assert.equal(h.model.requests.length, 2);
  });

  test("a run_many whose refused targets are refused the same way again ends the turn", async () => {
    const h = harness();
    await h.useScript(
      careless(
        "again",
        call("run_many", {
          targets: ["lxc:gitea", "lxc:old-wiki"],
          command: CHECK,
          purpose: "count updates",
        }),
      ),
    );
    const sessionId = await h.newSession();
    await h.say(sessionId, "audit pending updates");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
      status: "ran",
      turns: ["repeated_refusal"],
    });
    assert.equal(h.model.requests.length, 2);
    const told = messagesTo(h, sessionId);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /- lxc:old-wiki: lxc:old-wiki is destroyed/);
    assert.doesNotMatch(told[0]!, /lxc:gitea/, "only what was refused is named");
  });

  test("a different refusal each time is no repeat (the turn's budget bounds that)", async () => {
    const h = harness();
    let n = 0;
    await h.useScript([
      {
        name: "another",
        when: match.always(),
        reply: () => call("run", { target: `lxc:missing-${++n}`, command: CHECK, purpose: "x" }),
        times: 3,
      },
      { name: "answer", when: match.always(), reply: { text: "None of them exist." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "audit pending updates");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["answered"] });
    assert.equal(h.model.requests.length, 4);
  });

  test("the same call answered each time is no repeat", async () => {
    const h = harness();
    await h.useScript([
      {
        name: "again",
        when: match.always(),
        reply: call("list_entities", { type: "lxc", include_destroyed: true }),
        times: 3,
      },
      { name: "answer", when: match.always(), reply: { text: "Listed." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "audit pending updates");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["answered"] });
    assert.equal(h.model.requests.length, 4);
  });

  test("a repeat in a later turn (a continuation) counts too, and the session then waits for the operator", async () => {
    const h = harness();
    const runOldWiki = call("run", { target: "lxc:old-wiki", command: CHECK, purpose: "count updates" });
    await h.useScript([
      { name: "first", when: match.lastUserMessage("audit"), reply: runOldWiki },
      { name: "report", when: match.endsWithToolResult("run"), reply: { text: "old-wiki is destroyed." } },
      { name: "careless", when: match.always(), reply: runOldWiki, times: Number.POSITIVE_INFINITY },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "audit pending updates");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["answered"] });
    const resultArrives = (id: string) =>
      appendMessage(h.store.db, {
        sessionId,
        role: "system",
        content: `Execution finished: ${id}`,
        name: `execution:${id}`,
        author: "oikos",
      });
    await resultArrives("ex-1");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "continue"), {
      status: "ran",
      turns: ["repeated_refusal"],
    });
    assert.equal(h.model.requests.length, 3, "the repeat ended the turn at its first call");
    // more results arrive: recorded, but the model is not called until the operator speaks
    await resultArrives("ex-2");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "continue"), { status: "idle" });
    assert.equal(h.model.requests.length, 3);
    assert.equal(messagesTo(h, sessionId).filter((text) => text.startsWith("I stopped here")).length, 1);
    // the operator's word calls the model again, and refusals count afresh from it
    await h.say(sessionId, "leave old-wiki out");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
      status: "ran",
      turns: ["repeated_refusal"],
    });
    assert.equal(h.model.requests.length, 5);
  });
});
