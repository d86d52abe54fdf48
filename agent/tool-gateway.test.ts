import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";

let h: AgentHarness;
before(async () => {
  h = await startAgentHarness();
});
after(async () => {
  await h.close();
});

test("one tools/list and one MCP client per gateway, shared by every session; the server still checks each session's calls", async () => {
  const sessions = await Promise.all([h.newSession(), h.newSession(), h.newSession()]);
  const lists = await Promise.all(sessions.map((id) => h.gateway.tools(id)));
  assert.equal(h.gateway.listCalls, 1, "tools/list once for the three sessions");
  assert.ok(lists.every((list) => list === lists[0]));
  assert.ok(lists[0]!.some((tool) => tool.function.name === "run"));
  // the third session's client never listed the tools: its arguments are still checked by the server
  const refused = await h.gateway.call(sessions[2]!, "run", { target: 5 });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /command|target|Invalid/i);
  const listed = await h.gateway.call(sessions[2]!, "list_entities", {});
  assert.equal(listed.isError, false, listed.text);
  assert.equal(h.gateway.listCalls, 1);
  // one client (and one server behind it) for all three sessions; each call still names its session
  assert.equal(h.gateway.connects, 1, "one MCP client for the three sessions");
  const unknown = await h.gateway.call("no-such-session", "run", {
    target: "local",
    command: "true",
    purpose: "a session the server does not know",
  });
  assert.equal((unknown.structured as { code?: string } | undefined)?.code, "unknown_session", unknown.text);
});
