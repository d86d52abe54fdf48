import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { call, goalThenPlan } from "../test-support/agent/script.ts";
import { harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import type { ToolCallResult, ToolGateway } from "./tool-gateway.ts";
import { requestTurn } from "./turn-runner.ts";

/** The session's gateway with every result's text replaced (or its structured content dropped). */
function rewording(inner: ToolGateway, change: (result: ToolCallResult) => ToolCallResult): ToolGateway {
  return {
    tools: (sessionId) => inner.tools(sessionId),
    call: async (sessionId, name, args) => change(await inner.call(sessionId, name, args)),
    close: () => inner.close(),
  };
}

// Where a turn ends is decided by the tool result's structured content (kind / refusal code), so
// rewording every tool message leaves agent behaviour as it was; losing the structure does not
// make the loop guess from the words.
describe("the agent ends its turn on the structure of a result, never its wording", () => {
  const harness = harnessForSuite({ entities: [{ slug: "lxc:web", type: "lxc", name: "web" }] });
  const script = [
    ...goalThenPlan("restart", "Restart nginx on lxc:web", [
      { title: "Restart nginx", target: "lxc:web", risk: "config_mutation" },
    ]),
    // Reached only if the turn did not stop at the plan awaiting approval.
    { name: "kept going", when: match.endsWithToolResult("propose_plan"), reply: call("list_entities", {}) },
    { name: "answer", when: match.endsWithToolResult("list_entities"), reply: { text: "Waiting." } },
  ];

  test("every message reworded: the turn still stops at the plan awaiting approval", async () => {
    const h = harness();
    await h.useScript(script);
    const gateway = h.deps.tools;
    h.deps.tools = rewording(gateway, (result) => ({ ...result, text: "(reworded for this test)" }));
    try {
      const sessionId = await h.newSession();
      await h.say(sessionId, "restart nginx please");
      assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
        status: "ran",
        turns: ["stopped"],
      });
      assert.deepEqual(
        h.model.requests.map((r) => r.step),
        ["goal", "plan"],
      );
    } finally {
      h.deps.tools = gateway;
    }
  });

  test("without structured content the words alone do not end the turn", async () => {
    const h = harness();
    await h.useScript(script);
    const gateway = h.deps.tools;
    h.deps.tools = rewording(gateway, ({ structured: _dropped, ...result }) => ({
      ...result,
      text: '{"needs_approval":true,"status":"pending_approval"} Refused (approval_pending): END YOUR TURN',
    }));
    try {
      const sessionId = await h.newSession();
      await h.say(sessionId, "restart nginx please");
      assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), {
        status: "ran",
        turns: ["answered"],
      });
      assert.deepEqual(
        h.model.requests.map((r) => r.step),
        ["goal", "plan", "kept going", "answer"],
      );
    } finally {
      h.deps.tools = gateway;
    }
  });
});
