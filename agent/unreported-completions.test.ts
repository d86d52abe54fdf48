import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { appendMessage } from "../store/messages.ts";
import { completeSessionTask } from "../store/task-completion.ts";
import { harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { reportUnreportedCompletions } from "./unreported-completions.ts";

describe("a task closed just before its process died is reported once after the restart", () => {
  const harness = harnessForSuite();

  /** complete_task committed; the process died before its result was recorded and the event went out. */
  async function closedUnannounced(): Promise<string> {
    const h = harness();
    const sessionId = await h.newSession();
    await h.say(sessionId, "what is the uptime?");
    await appendMessage(h.store.db, {
      sessionId,
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "call-1", name: "complete_task", arguments: '{"outcome":"success","summary":"up 3 days"}' },
      ],
      author: "agent",
    });
    const closed = await completeSessionTask(h.store.db, sessionId, {
      outcome: "success",
      summary: "up 3 days",
    });
    assert.ok(closed.ok, JSON.stringify(closed));
    return sessionId;
  }

  const completedEvents = (sessionId: string) =>
    harness().published.filter((e) => e.type === "task.completed" && e.sessionId === sessionId);

  test("the event goes out once and the result is recorded; a second pass finds nothing", async () => {
    const h = harness();
    const sessionId = await closedUnannounced();
    const deps = { db: h.store.db, events: h.events };
    assert.deepEqual(await reportUnreportedCompletions(deps), [sessionId]);
    assert.deepEqual(
      completedEvents(sessionId).map((e) => (e.type === "task.completed" ? e.outcome : "")),
      ["success"],
    );
    const results = await h.store.db
      .selectFrom("messages")
      .select(["tool_call_id", "name"])
      .where("session_id", "=", sessionId)
      .where("role", "=", "tool")
      .execute();
    assert.deepEqual(results, [{ tool_call_id: "call-1", name: "complete_task" }]);
    assert.deepEqual(await reportUnreportedCompletions(deps), [], "reported once");
    assert.equal(completedEvents(sessionId).length, 1);
  });

  test("the summary card already posted: the result is recorded, the operator not told twice", async () => {
    const h = harness();
    const sessionId = await closedUnannounced();
    await h.store.db
      .insertInto("chat_cards")
      .values({
        platform: "test",
        message_id: `summary-${sessionId}`,
        room: "room",
        thread: null,
        kind: "summary",
        session_id: sessionId,
        subject_id: sessionId,
        decision_note: null,
        created_at: new Date(),
      })
      .execute();
    assert.deepEqual(await reportUnreportedCompletions({ db: h.store.db, events: h.events }), [sessionId]);
    assert.equal(completedEvents(sessionId).length, 0);
  });

  test("the idle sweep's pass leaves a task closed a moment ago to the process closing it", async () => {
    const h = harness();
    const sessionId = await closedUnannounced();
    const deps = { db: h.store.db, events: h.events };
    assert.deepEqual(
      await reportUnreportedCompletions(deps, new Date(), { closedBefore: new Date(Date.now() - 60_000) }),
      [],
    );
    assert.deepEqual(await reportUnreportedCompletions(deps), [sessionId]);
  });
});
