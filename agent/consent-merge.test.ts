import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { goalThenPlan } from "../test-support/agent/script.ts";
import { approvePlanAsOperator, sessionRow } from "../test-support/agent/session-queries.ts";
import { harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { requestTurn } from "./turn-runner.ts";

describe("a plan decided while a turn runs", () => {
  const harness = harnessForSuite();

  test("the consent request merges into the running turn, which then acts on the decision", async () => {
    const h = harness();
    const busy = Promise.withResolvers<void>();
    await h.useScript([
      ...goalThenPlan("restart", "Restart nginx", [{ title: "Restart nginx", risk: "config_mutation" }]),
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
    await approvePlanAsOperator(h, sessionId);
    assert.deepEqual(await requestTurn(h.deps, sessionId, "consent"), { status: "merged" });
    busy.resolve();

    assert.deepEqual(await running, { status: "ran", turns: ["answered", "answered"] });
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["goal", "plan", "chatting", "approved"],
    );
    assert.equal((await sessionRow(h, sessionId)).status, "executing");
    assert.deepEqual(h.model.unmatched, []);
  });
});
