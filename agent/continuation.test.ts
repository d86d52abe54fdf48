import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { appendMessage } from "../store/messages.ts";
import { closeWindows } from "../store/windows.ts";
import { CHECK_GITEA, checkGitea, goalThenPlan } from "../test-support/agent/script.ts";
import {
  approvePlanAsOperator,
  completeExecution,
  insertExecution,
  planStep,
  sessionExecutions,
  toolResults,
  turnReleased,
} from "../test-support/agent/session-queries.ts";
import { GITEA, harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { continueJobId, handleContinue, onExecutionFinished } from "./continuation.ts";
import { oweResults, unfinishedExecutions } from "./owed-results.ts";
import { requestTurn } from "./turn-runner.ts";

describe("continuation: execution.finished resumes an approved plan", () => {
  const harness = harnessForSuite({ entities: [GITEA], agentJobs: true });

  /** A session whose two-step mutation plan was proposed (and optionally approved), step 1 linked to an execution. */
  async function planWithExecution(approve: boolean): Promise<{ sessionId: string; executionId: string }> {
    const h = harness();
    const sessionId = await h.newSession();
    await h.useScript(
      goalThenPlan("upgrade", "Upgrade gitea", [
        { title: "Pull new gitea image", target: "lxc:gitea", risk: "config_mutation" },
        { title: "Verify gitea answers", target: "lxc:gitea", risk: "read_only" },
      ]),
    );
    await h.say(sessionId, "upgrade gitea");
    await requestTurn(h.deps, sessionId, "message");
    if (approve) await approvePlanAsOperator(h, sessionId);
    const executionId = `ex-${sessionId.slice(0, 8)}`;
    await h.store.db
      .insertInto("executions")
      .values({
        id: executionId,
        session_id: sessionId,
        plan_generation: 1,
        step_seq: 1,
        target: "lxc:gitea",
        command: "docker compose pull",
        command_key: "k",
        risk: "config_mutation",
        purpose: "pull",
        status: "running",
        requested_by: "agent",
        timeout_ms: 60_000,
      })
      .execute();
    await h.store.db
      .updateTable("plan_steps")
      .set({ status: "running" })
      .where("session_id", "=", sessionId)
      .where("seq", "=", 1)
      .execute();
    return { sessionId, executionId };
  }

  async function finish(executionId: string, sessionId: string) {
    const h = harness();
    await h.store.db
      .updateTable("executions")
      .set({
        status: "completed",
        exit_code: 0,
        stdout: "Pulled gitea:1.23",
        finished_at: new Date(),
        duration_ms: 1200,
      })
      .where("id", "=", executionId)
      .execute();
    await h.events.publish({ type: "execution.finished", sessionId, executionId, status: "completed" });
  }

  test("the finished execution closes its step and resumes the agent with the result and the next step, window lapsed or not", async () => {
    const h = harness();
    const { sessionId, executionId } = await planWithExecution(true);
    await closeWindows(h.store.db, sessionId); // the assent window lapsed while the command ran
    await h.useScript([
      {
        name: "resume",
        when: match.lastSystemNote(
          /Execution finished: .*"status":"completed".*Next open plan step: 2 "Verify gitea answers"/s,
        ),
        reply: { text: "Pulled; verifying next." },
      },
    ]);
    await finish(executionId, sessionId);
    const [request] = await h.model.waitForRequests(1);
    assert.match(JSON.stringify(request!.body.messages.at(-1)), /Pulled gitea:1.23/);
    assert.match(
      JSON.stringify(request!.body.messages.at(-1)),
      /The operator last said: \\"upgrade gitea\\"/,
    );
    const step = await planStep(h, sessionId, 1);
    assert.equal(step.status, "done");
    assert.equal(step.execution_id, executionId);
    await turnReleased(h, sessionId);
    // A redelivered continuation finds nothing new to answer.
    assert.deepEqual(await handleContinue(h.deps, { sessionId, executionId }), { status: "idle" });
    assert.equal(h.model.requests.length, 1);
    assert.deepEqual(h.model.unmatched, []);
    assert.equal(continueJobId(executionId).includes(":"), false, "BullMQ job ids may not contain ':'");
  });

  test("an execution oikos refused at the worker tells the model why (the status reason), not only failed", async () => {
    const h = harness();
    const { sessionId, executionId } = await planWithExecution(true);
    await h.useScript([
      {
        name: "refused",
        when: match.lastSystemNote(
          /Execution finished: .*"status":"failed".*"reason":"Refused \(routing_changed\)/s,
        ),
        reply: { text: "It was renamed after approval; not run." },
      },
    ]);
    await h.store.db
      .updateTable("executions")
      .set({
        status: "failed",
        status_reason:
          "Refused (routing_changed): the routing of lxc:gitea changed after this command was approved",
        finished_at: new Date(),
      })
      .where("id", "=", executionId)
      .execute();
    await h.events.publish({ type: "execution.finished", sessionId, executionId, status: "failed" });
    await h.model.waitForRequests(1);
    assert.equal(h.model.requests[0]!.step, "refused");
    await turnReleased(h, sessionId);
  });

  test("no continuation when the plan was never approved", async () => {
    const h = harness();
    const { sessionId, executionId } = await planWithExecution(false);
    await h.useScript([]);
    await finish(executionId, sessionId);
    const step = await planStep(h, sessionId, 1);
    assert.equal(step.status, "done", "the linked step still closes");
    const decision = await onExecutionFinished(
      { db: h.store.db, queue: h.queue },
      { type: "execution.finished", sessionId, executionId, status: "completed" },
    );
    assert.equal(decision, "skipped");
    assert.equal(h.model.requests.length, 0);
  });

  test("an individually approved execution continues even without an approved plan", async () => {
    const h = harness();
    const { sessionId, executionId } = await planWithExecution(false);
    await h.store.db
      .insertInto("approvals")
      .values({
        id: `ap-${executionId}`,
        session_id: sessionId,
        subject: "execution",
        execution_id: executionId,
        status: "approved",
        expires_at: new Date(Date.now() + 3_600_000),
      })
      .execute();
    await h.store.db
      .updateTable("executions")
      .set({ approval_id: `ap-${executionId}` })
      .where("id", "=", executionId)
      .execute();
    await h.useScript([
      { name: "resume", when: match.lastSystemNote(/^Execution finished/), reply: { text: "Continuing." } },
    ]);
    await finish(executionId, sessionId);
    await h.model.waitForRequests(1);
    assert.equal(h.model.requests[0]!.step, "resume");
    await turnReleased(h, sessionId);
  });
});

describe("continuation: a result the model was told is still running reaches it, plan or no plan", () => {
  const harness = harnessForSuite({ entities: [GITEA], agentJobs: true });

  test("a read-only command that outran run's wait, before any plan, is reported back once", async () => {
    const h = harness();
    await h.useScript([
      checkGitea(),
      {
        name: "wait",
        when: match.lastToolResult(/"status":"queued"/, "run"),
        reply: { text: "It is still running; I will report when it ends." },
      },
      {
        name: "report",
        when: match.lastSystemNote(/^Execution finished: .*gitea Up 3 days/s),
        reply: { text: "Gitea is up." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "is gitea up?");
    await requestTurn(h.deps, sessionId, "message");
    const [execution] = await sessionExecutions(h, sessionId);
    assert.ok(execution, `run created an execution: ${await toolResults(h, sessionId, "run")}`);
    assert.equal(execution.result_owed, true, "the model was told it still runs: its result is owed");
    await completeExecution(h, execution.id, "gitea Up 3 days");
    await h.model.waitForRequests(3);
    await turnReleased(h, sessionId);
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["check", "wait", "report"],
    );
    const notes = await h.store.db
      .selectFrom("messages")
      .select("content")
      .where("session_id", "=", sessionId)
      .where("content", "like", "%gitea Up 3 days%")
      .execute();
    assert.equal(notes.length, 1, "the result is in the transcript exactly once");
    // Redelivered (a second event, the start-up catch-up): nothing more happens.
    assert.deepEqual(await handleContinue(h.deps, { sessionId, executionId: execution.id }), {
      status: "idle",
    });
    assert.equal(h.model.requests.length, 3);
  });

  test("an execution that ended before the model was told it runs is continued by the mark itself", async () => {
    const h = harness();
    const sessionId = await h.newSession();
    const executionId = await insertExecution(h, sessionId, { command: CHECK_GITEA, status: "completed" });
    const enqueued: string[] = [];
    await oweResults(
      {
        db: h.store.db,
        queue: {
          enqueue: async (_queue, _data, options) => {
            enqueued.push(options?.jobId ?? "");
            return "job";
          },
        },
      },
      sessionId,
      [executionId],
    );
    assert.deepEqual(enqueued, [continueJobId(executionId)]);
  });

  test("only executions still on their way are owed: finished and approval-waiting ones are not", () => {
    assert.deepEqual(unfinishedExecutions({ kind: "pending", execution_id: "ex-1", status: "running" }), [
      "ex-1",
    ]);
    assert.deepEqual(
      unfinishedExecutions({ kind: "finished", execution_id: "ex-1", status: "completed" }),
      [],
    );
    assert.deepEqual(
      unfinishedExecutions({ kind: "approval_requested", execution_id: "ex-1", status: "pending_approval" }),
      [],
    );
    assert.deepEqual(
      unfinishedExecutions({
        kind: "fan_out",
        results: [
          { target: "a", kind: "pending", execution_id: "ex-a", status: "queued" },
          { target: "b", kind: "finished", execution_id: "ex-b", status: "failed" },
          { target: "c", kind: "refused", code: "retry_cap" },
        ],
      }),
      ["ex-a"],
    );
    assert.deepEqual(unfinishedExecutions("not structured"), []);
  });

  test("a run in flight when the process died: the resumed turn re-attaches the run, and the execution's end reports back once", async () => {
    const h = harness();
    await h.useScript([
      {
        name: "ack",
        when: match.lastToolResult(/"kind":"reattached"/, "run"),
        reply: { text: "The check is still running; I will report when it ends." },
      },
      {
        name: "report",
        when: match.lastSystemNote(/^Execution finished: .*gitea is active/s),
        reply: { text: "Gitea is up." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "is gitea up?");
    // What a process that died inside `run` leaves: the call without a result, its execution running,
    // and the turn owed (its lease's holder is gone).
    await appendMessage(h.store.db, {
      sessionId,
      role: "assistant",
      content: "",
      toolCalls: [
        {
          id: "call-1",
          name: "run",
          arguments: JSON.stringify({ target: "lxc:gitea", command: CHECK_GITEA, purpose: "check" }),
        },
      ],
      author: "agent",
    });
    const executionId = await insertExecution(h, sessionId, { command: CHECK_GITEA, status: "running" });
    await h.store.db
      .updateTable("sessions")
      .set({ turn_pending: true })
      .where("id", "=", sessionId)
      .execute();

    await requestTurn(h.deps, sessionId, "resume");
    const [execution] = await sessionExecutions(h, sessionId);
    assert.equal(execution!.result_owed, true, "re-attached while running: its result is owed");
    await completeExecution(h, executionId, "gitea is active");
    await h.model.waitForRequests(2);
    await turnReleased(h, sessionId);
    assert.deepEqual(
      h.model.requests.map((r) => r.step),
      ["ack", "report"],
    );
    assert.deepEqual(h.model.unmatched, []);
  });
});
