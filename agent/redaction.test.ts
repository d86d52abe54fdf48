import assert from "node:assert/strict";
import { after as afterAll, before, describe, test } from "node:test";
import { upsertKnowledge } from "../store/knowledge.ts";
import { listMessages } from "../store/messages.ts";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";
import { after, call } from "../test-support/agent/script.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { requestTurn } from "./turn-runner.ts";

const PASSWORD = "hunter2";
const TOKEN = "gT0k3nABCDEFGHIJ123456xyz";

describe("secrets never reach the model endpoint", () => {
  let h: AgentHarness;
  before(async () => {
    h = await startAgentHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  test("an operator password and a bearer token in a tool result are redacted in every request body", async () => {
    const written = await upsertKnowledge(
      h.store.db,
      {
        title: "Gitea API access",
        content: `Call the API with: curl -H "Authorization: Bearer ${TOKEN}" https://git.lan/api/v1/version`,
        kind: "runbook",
        about: [],
        tags: [],
      },
      { by: "test" },
    );
    assert.equal(written.status, "created");
    const slug = written.status === "created" ? written.slug : "";
    await h.useScript([
      {
        name: "read",
        when: match.lastUserMessage("gitea"),
        reply: call("get_knowledge_content", { slug }),
      },
      {
        name: "answer",
        when: after("get_knowledge_content"),
        reply: { text: "Noted, the API needs a token." },
      },
      { name: "again", when: match.lastUserMessage("thanks"), reply: { text: "You are welcome." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, `the gitea admin login is admin, password=${PASSWORD}; check the API runbook`);
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["answered"] });
    await h.say(sessionId, "thanks");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["answered"] });

    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["read", "answer", "again"],
    );
    for (const request of h.model.requests) {
      const body = JSON.stringify(request.body);
      assert.ok(!body.includes(PASSWORD), `request ${request.index} carries the operator's password`);
      assert.ok(!body.includes(TOKEN), `request ${request.index} carries the bearer token`);
      assert.match(body, /password=\[REDACTED\]/, "the operator's message itself still reaches the model");
    }
    assert.match(JSON.stringify(h.model.requests[1]!.body.messages.at(-1)), /Bearer \[REDACTED\]/);
    const stored = await listMessages(h.store.db, sessionId);
    const toolResult = stored.find((m) => m.role === "tool");
    assert.ok(toolResult && !toolResult.content.includes(TOKEN), "tool results are stored redacted");
    assert.deepEqual(h.model.unmatched, []);
  });
});
