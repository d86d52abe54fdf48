import assert from "node:assert/strict";
import { after as afterAll, before, describe, test } from "node:test";
import { InProcessQueue } from "../jobs/queue/in-process.ts";
import { approvePlan } from "../store/consent.ts";
import { upsertEntities } from "../store/entities.ts";
import { closeWindows } from "../store/windows.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { continueJobId, handleContinue, onExecutionFinished } from "./continuation.ts";
import { registerAgentJobs } from "./register-jobs.ts";
import { type AgentHarness, startAgentHarness } from "./testing/agent-harness.ts";
import { after, call } from "./testing/script.ts";
import { waitFor } from "./testing/wait-for.ts";
import { requestTurn } from "./turn-runner.ts";

describe("continuation: execution.finished resumes an approved plan", () => {
  let h: AgentHarness;
  let queue: InProcessQueue;
  before(async () => {
    queue = new InProcessQueue();
    h = await startAgentHarness({ queue });
    await upsertEntities(h.store.db, [{ slug: "lxc:gitea", type: "lxc", name: "gitea" }], { by: "test" });
    registerAgentJobs({ queue, events: h.events }, h.deps);
    await queue.start();
  });
  afterAll(async () => {
    await h.close();
  });

  /** A session whose two-step mutation plan was proposed (and optionally approved), step 1 linked to an execution. */
  async function planWithExecution(approve: boolean): Promise<{ sessionId: string; executionId: string }> {
    const sessionId = await h.newSession();
    await h.useScript([
      {
        name: "goal",
        when: match.lastUserMessage("upgrade"),
        reply: call("set_goal", { goal: "Upgrade gitea" }),
      },
      {
        name: "plan",
        when: after("set_goal"),
        reply: call("propose_plan", {
          steps: [
            { title: "Pull new gitea image", target: "lxc:gitea", risk: "config_mutation" },
            { title: "Verify gitea answers", target: "lxc:gitea", risk: "read_only" },
          ],
        }),
      },
    ]);
    await h.say(sessionId, "upgrade gitea");
    await requestTurn(h.deps, sessionId, "message");
    if (approve) {
      const result = await approvePlan(h.store.db, {
        sessionId,
        generation: 1,
        by: "operator",
        via: "reaction",
      });
      assert.equal(result.ok, true);
    }
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
    const step = await h.store.db
      .selectFrom("plan_steps")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("seq", "=", 1)
      .executeTakeFirstOrThrow();
    assert.equal(step.status, "done");
    assert.equal(step.execution_id, executionId);
    await waitFor(
      async () =>
        (
          await h.store.db
            .selectFrom("sessions")
            .select("turn_owner")
            .where("id", "=", sessionId)
            .executeTakeFirst()
        )?.turn_owner === null,
    );
    // A redelivered continuation finds nothing new to answer.
    assert.deepEqual(await handleContinue(h.deps, { sessionId, executionId }), { status: "idle" });
    assert.equal(h.model.requests.length, 1);
    assert.deepEqual(h.model.unmatched, []);
    assert.equal(continueJobId(executionId).includes(":"), false, "BullMQ job ids may not contain ':'");
  });

  test("no continuation when the plan was never approved", async () => {
    const { sessionId, executionId } = await planWithExecution(false);
    await h.useScript([]);
    await finish(executionId, sessionId);
    const step = await h.store.db
      .selectFrom("plan_steps")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("seq", "=", 1)
      .executeTakeFirstOrThrow();
    assert.equal(step.status, "done", "the linked step still closes");
    const decision = await onExecutionFinished(
      { db: h.store.db, queue },
      { type: "execution.finished", sessionId, executionId, status: "completed" },
    );
    assert.equal(decision, "skipped");
    assert.equal(h.model.requests.length, 0);
  });

  test("an individually approved execution continues even without an approved plan", async () => {
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
    await waitFor(
      async () =>
        (
          await h.store.db
            .selectFrom("sessions")
            .select("turn_owner")
            .where("id", "=", sessionId)
            .executeTakeFirst()
        )?.turn_owner === null,
    );
  });
});
