import assert from "node:assert/strict";
import { after as afterAll, before, describe, test } from "node:test";
import { approvePlan } from "../store/consent.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { type AgentHarness, startAgentHarness } from "./testing/agent-harness.ts";
import { after, call } from "./testing/script.ts";
import { requestTurn } from "./turn-runner.ts";

describe("a plan decided while a turn runs", () => {
  let h: AgentHarness;
  before(async () => {
    h = await startAgentHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  test("the consent request merges into the running turn, which then acts on the decision", async () => {
    const busy = Promise.withResolvers<void>();
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
        name: "chatting",
        when: match.lastUserMessage("news"),
        reply: { text: "Still waiting for your approval.", hold: busy.promise },
      },
      {
        name: "approved",
        when: match.lastSystemNote(/^The operator approved plan 1\. Advance: update_plan_step\(1, running\)/),
        reply: { text: "Approved; starting step 1." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "restart nginx please");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["stopped"] });

    await h.say(sessionId, "any news?");
    const running = requestTurn(h.deps, sessionId, "message");
    await h.model.waitForRequests(3);
    const decided = await approvePlan(h.store.db, {
      sessionId,
      generation: 1,
      by: "operator",
      via: "reaction",
    });
    assert.equal(decided.ok, true);
    assert.deepEqual(await requestTurn(h.deps, sessionId, "consent"), { status: "merged" });
    busy.resolve();

    assert.deepEqual(await running, { status: "ran", turns: ["answered", "answered"] });
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["goal", "plan", "chatting", "approved"],
    );
    const session = await h.store.db
      .selectFrom("sessions")
      .select("status")
      .where("id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(session.status, "executing");
    assert.deepEqual(h.model.unmatched, []);
  });
});
