import assert from "node:assert/strict";
import { after as afterAll, before, test } from "node:test";
import { listMessages } from "../store/messages.ts";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { NOT_STARTED_STOPPING, runTurn, TurnInterrupted } from "./turn.ts";

// Issue 36: once a stop begins, a turn starts no tool call the model asked for (least of all a
// command): each is recorded as not started, the turn ends at its checkpoint, and the resumed
// turn decides again.
let h: AgentHarness;
before(async () => {
  h = await startAgentHarness();
});
afterAll(async () => {
  await h.close();
});

test("a stop that begins after the model asked: its calls are recorded not started, nothing runs", async () => {
  await h.useScript([
    {
      name: "asks",
      when: match.lastUserMessage(/restart gitea/),
      reply: {
        text: "Setting the goal and running it.",
        toolCalls: [
          { name: "set_goal", arguments: { goal: "Restart gitea" } },
          {
            name: "run",
            arguments: { target: "local", command: "touch /tmp/never", purpose: "restart", step_seq: 1 },
          },
        ],
      },
    },
  ]);
  const sessionId = await h.newSession();
  await h.say(sessionId, "restart gitea please");
  const stop = new AbortController();
  // The stop begins right after the model's reply is stored (its text is published then).
  const unsubscribe = h.events.subscribe("agent.message", () => stop.abort());
  try {
    await assert.rejects(runTurn(h.deps, sessionId, { stopping: stop.signal }), TurnInterrupted);
  } finally {
    unsubscribe();
  }
  const results = (await listMessages(h.store.db, sessionId)).filter((m) => m.role === "tool");
  assert.deepEqual(
    results.map((m) => [m.name, m.content]),
    [
      ["set_goal", NOT_STARTED_STOPPING],
      ["run", NOT_STARTED_STOPPING],
    ],
  );
  const session = await h.store.db
    .selectFrom("sessions")
    .select("goal")
    .where("id", "=", sessionId)
    .executeTakeFirstOrThrow();
  assert.equal(session.goal, null, "set_goal did not run");
  assert.equal((await h.store.db.selectFrom("executions").select("id").execute()).length, 0, "no execution");
});
