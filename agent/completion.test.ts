import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ExecutionStatus } from "../store/statuses.ts";
import { openWindow } from "../store/windows.ts";
import type { AgentHarness } from "../test-support/agent/agent-harness.ts";
import { after, call, goalThenPlan, setStep } from "../test-support/agent/script.ts";
import {
  approvePlanAsOperator,
  lastToolResult,
  sessionExecutions,
  sessionFeedback,
  sessionRow,
} from "../test-support/agent/session-queries.ts";
import { GITEA, harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { requestTurn } from "./turn-runner.ts";

async function insertExecution(h: AgentHarness, sessionId: string, id: string, status: ExecutionStatus) {
  await h.store.db
    .insertInto("executions")
    .values({
      id,
      session_id: sessionId,
      target: "lxc:gitea",
      command: "gitea --version",
      command_key: `k-${id}`,
      risk: "read_only",
      purpose: "version",
      status,
      requested_by: "agent",
      timeout_ms: 60_000,
      exit_code: status === "completed" ? 0 : null,
      finished_at: status === "completed" ? new Date() : null,
    })
    .execute();
}

describe("complete_task gates and the reopen rule, driven through the agent loop", () => {
  const harness = harnessForSuite({ entities: [GITEA] });

  test("success is refused while executions run and without writeback; a second completion is refused", async () => {
    const h = harness();
    const sessionId = await h.newSession();
    await insertExecution(h, sessionId, "ex-done1", "completed");
    await insertExecution(h, sessionId, "ex-run1", "running");
    await h.useScript([
      ...goalThenPlan("gitea version", "Find the gitea version", [
        { title: "Read gitea version", target: "lxc:gitea", risk: "read_only" },
      ]),
      { name: "s1", when: after("propose_plan"), reply: setStep(1, "running") },
      { name: "s1done", when: after("update_plan_step", '"status":"running"'), reply: setStep(1, "done") },
      {
        name: "early",
        when: after("update_plan_step", '"status":"done"'),
        reply: call("complete_task", { outcome: "success", summary: "gitea is 1.22" }),
      },
      {
        name: "wait",
        when: after("complete_task", "still open"),
        reply: { text: "Waiting for ex-run1 to finish." },
      },
      // second turn: the execution finished
      {
        name: "retry",
        when: match.lastUserMessage("finished"),
        reply: call("complete_task", { outcome: "success", summary: "gitea is 1.22" }),
      },
      {
        name: "writeback",
        when: after("complete_task", "wrote nothing back"),
        reply: call("update_entity_attributes", {
          slug: "lxc:gitea",
          attributes: { "gitea.version": "1.22" },
        }),
      },
      { name: "wb-step", when: after("update_entity_attributes"), reply: setStep(2, "done") },
      {
        name: "double",
        when: after("update_plan_step", "Every step is closed"),
        reply: {
          toolCalls: [
            {
              name: "complete_task",
              arguments: {
                outcome: "success",
                summary: "gitea is 1.22",
                verification: "gitea --version",
                root_cause: "none",
              },
            },
            { name: "complete_task", arguments: { outcome: "success", summary: "again" } },
          ],
        },
      },
      // third turn: the operator says thanks; the model tries to complete again
      {
        name: "again",
        when: match.lastUserMessage("thanks"),
        reply: call("complete_task", { outcome: "success", summary: "done" }),
      },
      { name: "reply", when: after("complete_task", "already complete"), reply: { text: "You're welcome." } },
    ]);
    await h.say(sessionId, "what gitea version runs?");
    await requestTurn(h.deps, sessionId, "message");
    assert.match(
      await lastToolResult(h, sessionId, "complete_task"),
      /1 execution\(s\) of this session are still open \(ex-run1 running/,
    );
    assert.equal((await sessionRow(h, sessionId)).status, "executing");

    await h.store.db
      .updateTable("executions")
      .set({ status: "completed", exit_code: 0, finished_at: new Date() })
      .where("id", "=", "ex-run1")
      .execute();
    await h.say(sessionId, "ex-run1 finished");
    const second = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(second, { status: "ran", turns: ["stopped"] });
    const done = await sessionRow(h, sessionId);
    assert.equal(done.status, "done");
    assert.equal(done.outcome, "success");
    assert.equal(
      await lastToolResult(h, sessionId, "complete_task"),
      "Not run: the turn ended after complete_task.",
    );
    const feedback = await sessionFeedback(h, sessionId);
    assert.equal(feedback.length, 1);
    assert.equal(feedback[0]!.plan_adherence, 1);
    const knowledge = await h.store.db
      .selectFrom("knowledge")
      .selectAll()
      .where("session_id", "=", sessionId)
      .execute();
    assert.equal(knowledge.length, 1);
    assert.match(knowledge[0]!.content, /## Outcome\nsuccess/);
    const about = await h.store.db
      .selectFrom("knowledge_about")
      .selectAll()
      .where("knowledge_id", "=", knowledge[0]!.id)
      .execute();
    assert.deepEqual(
      about.map((a) => a.entity_slug),
      ["lxc:gitea"],
    );
    assert.ok(h.published.some((e) => e.type === "task.completed" && e.outcome === "success"));

    // Called directly on the closed session (an outside client, a replayed call): refused.
    const direct = await h.gateway.call(sessionId, "complete_task", {
      outcome: "success",
      summary: "once more",
    });
    assert.equal(direct.isError, true);
    assert.match(direct.text, /already complete/);

    await h.say(sessionId, "thanks");
    await requestTurn(h.deps, sessionId, "message");
    assert.match(
      await lastToolResult(h, sessionId, "complete_task"),
      /already complete; the operator's new message reopened/,
    );
    assert.equal((await sessionFeedback(h, sessionId)).length, 1);
    assert.deepEqual(h.model.unmatched, []);
  });

  test("an outcome outside the enum is recorded as partial", async () => {
    const h = harness();
    const sessionId = await h.newSession();
    await h.useScript([
      {
        name: "goal",
        when: match.lastUserMessage("look"),
        reply: call("set_goal", { goal: "Look at gitea" }),
      },
      {
        name: "close",
        when: after("set_goal"),
        reply: call("complete_task", { outcome: "unclear", summary: "looked" }),
      },
    ]);
    await h.say(sessionId, "look at gitea");
    await requestTurn(h.deps, sessionId, "message");
    const closed = await sessionRow(h, sessionId);
    assert.equal(closed.outcome, "partial");
    assert.match(await lastToolResult(h, sessionId, "complete_task"), /recorded as partial/);
  });

  test("a reopened session must set_goal and propose_plan again before a mutation runs", async () => {
    const h = harness();
    const sessionId = await h.newSession();
    await h.useScript([
      ...goalThenPlan("restart nginx", "Restart nginx", [
        { title: "Restart nginx", target: "lxc:gitea", risk: "config_mutation" },
      ]),
      {
        name: "close",
        when: match.lastUserMessage("go ahead"),
        reply: call("complete_task", { outcome: "partial", summary: "restarted nginx" }),
      },
      {
        name: "adhoc-plan",
        when: match.lastUserMessage("again"),
        reply: call("propose_plan", { steps: [{ title: "Restart nginx", risk: "config_mutation" }] }),
      },
      {
        name: "adhoc-run",
        when: after("propose_plan", "reopened"),
        reply: call("run", {
          target: "lxc:gitea",
          command: "systemctl restart nginx",
          purpose: "restart nginx",
        }),
      },
      { name: "give-up", when: after("run"), reply: { text: "I need a goal and a plan first." } },
    ]);
    await h.say(sessionId, "restart nginx on gitea");
    await requestTurn(h.deps, sessionId, "message");
    await approvePlanAsOperator(h, sessionId);
    await h.say(sessionId, "go ahead");
    await requestTurn(h.deps, sessionId, "message");
    assert.equal((await sessionRow(h, sessionId)).status, "done");
    // Even with an assent window still open (say, reopened by mistake), the old approved plan does not carry over.
    await openWindow(h.store.db, {
      sessionId,
      kind: "assent",
      openedBy: "operator",
      channel: "reaction",
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await h.say(sessionId, "now restart it again");
    await requestTurn(h.deps, sessionId, "message");
    const reopened = await sessionRow(h, sessionId);
    assert.equal(reopened.status, "planning");
    assert.equal(reopened.requires_replan, true);
    assert.match(await lastToolResult(h, sessionId, "propose_plan"), /Call set_goal with the new goal first/);
    assert.match(await lastToolResult(h, sessionId, "run"), /Refused \(plan_(first|required)\)/);
    assert.deepEqual(await sessionExecutions(h, sessionId), [], "nothing was queued or run");
    assert.deepEqual(h.model.unmatched, []);
  });
});
