import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { InProcessQueue } from "../jobs/queue/in-process.ts";
import { upsertEntities } from "../store/entities.ts";
import { type AgentHarness, startAgentHarness } from "../test-support/agent/agent-harness.ts";
import { checkGitea } from "../test-support/agent/script.ts";
import {
  completeExecution,
  sessionExecutions,
  toolResults,
  turnReleased,
} from "../test-support/agent/session-queries.ts";
import { GITEA } from "../test-support/agent/suite-harness.ts";
import { waitFor } from "../test-support/agent/wait-for.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { registerAgentJobs } from "./register-jobs.ts";

// One turn slot, two sessions: the first session's `run` waits (up to a minute) for a command that
// nobody executes until the test says so. The second session's model call happens during that wait:
// a turn waiting on an execution holds no slot. The slot still bounds model calls at once.
describe("turn slots: a turn waiting on its execution lets another session think", () => {
  let h: AgentHarness;
  const queue = new InProcessQueue();
  before(async () => {
    h = await startAgentHarness({ queue, runWaitMs: 60_000 });
    await upsertEntities(h.store.db, [GITEA], { by: "test" });
    registerAgentJobs({ queue, events: h.events }, h.deps, { concurrency: 1 });
    await queue.start();
  });
  after(() => h.close());

  test("the second session's model call comes while the first one's run still waits", async () => {
    await h.useScript([
      checkGitea(),
      { name: "greet", when: match.lastUserMessage("hello"), reply: { text: "Hello." } },
      {
        name: "report",
        when: match.lastToolResult("gitea Up 3 days", "run"),
        reply: { text: "Gitea is up." },
      },
    ]);
    const waiting = await h.newSession();
    await h.say(waiting, "is gitea up?");
    await queue.enqueue("agent-turn", { sessionId: waiting, reason: "message" });
    const [execution] = await waitFor(async () => {
      const rows = await sessionExecutions(h, waiting);
      return rows.length > 0 ? rows : undefined;
    });
    const other = await h.newSession();
    await h.say(other, "hello");
    await queue.enqueue("agent-turn", { sessionId: other, reason: "message" });
    // Held slot: this would wait out the first run's minute and time out here.
    await waitFor(async () => (h.model.requests.some((r) => r.step === "greet") ? true : undefined));
    await turnReleased(h, other);
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["check", "greet"],
      "the other session was answered while the first one's run waited",
    );
    assert.deepEqual(await toolResults(h, waiting, "run"), [], "the first run is still waiting");

    await completeExecution(h, execution!.id, "gitea Up 3 days");
    await turnReleased(h, waiting);
    await waitFor(async () => (h.model.requests.length === 3 ? true : undefined));
    assert.equal(h.model.requests[2]!.step, "report", "the run's own result answered the first session");
    assert.equal(h.model.peakConcurrency, 1, "one slot: one model call at a time");
    assert.deepEqual(h.model.unmatched, []);
  });
});
