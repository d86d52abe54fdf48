import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { after, call, setStep } from "../test-support/agent/script.ts";
import {
  approvePlanAsOperator,
  planSteps,
  sessionExecutions,
  sessionRow,
  toolResults,
} from "../test-support/agent/session-queries.ts";
import { GITEA, harnessForSuite } from "../test-support/agent/suite-harness.ts";
import { match } from "../test-support/scripted-model/index.ts";
import { requestTurn } from "./turn-runner.ts";

const READ_ONLY_PLAN = [
  { title: "Inspect gitea service", target: "lxc:gitea", risk: "read_only" },
  { title: "Read gitea logs", target: "lxc:gitea", risk: "read_only" },
  { title: "Check disk usage", target: "lxc:gitea", risk: "read_only" },
];

/** set_goal → propose_plan(read-only plan) as the first two replies of a scripted turn. */
function planned(goal: string, steps: object[] = READ_ONLY_PLAN) {
  return [
    { name: "goal", when: match.lastUserMessage(goal), reply: call("set_goal", { goal }) },
    { name: "plan", when: after("set_goal", "Goal set"), reply: call("propose_plan", { steps }) },
  ];
}

describe("task gates driven through the agent loop", () => {
  const harness = harnessForSuite({ entities: [GITEA] });

  test("re-proposal after a step started is refused; the plan stays and a writeback step was appended", async () => {
    const h = harness();
    await h.useScript([
      ...planned("check gitea"),
      { name: "start", when: after("propose_plan", '"generation":1'), reply: setStep(1, "running") },
      {
        name: "repropose",
        when: after("update_plan_step"),
        reply: call("propose_plan", { steps: [{ title: "Something else entirely", risk: "read_only" }] }),
      },
      {
        name: "advance",
        when: after("propose_plan", "refused"),
        reply: { text: "Advancing the existing plan instead." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "check gitea");
    const result = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(result, { status: "ran", turns: ["answered"] });
    const [, refusal] = await toolResults(h, sessionId, "propose_plan");
    assert.match(refusal!, /step 1 of plan 1 has started/);
    assert.match(refusal!, /update_plan_step/);
    const plans = await h.store.db
      .selectFrom("plans")
      .selectAll()
      .where("session_id", "=", sessionId)
      .execute();
    assert.equal(plans.length, 1);
    const steps = await planSteps(h, sessionId);
    assert.equal(steps.length, 4, "three steps plus the appended writeback step");
    assert.match(steps[3]!.title, /Write back/);
    assert.equal(steps[0]!.status, "running");
    assert.deepEqual(h.model.unmatched, []);
    assert.ok(h.published.some((e) => e.type === "plan.proposed"));
  });

  test("out-of-order steps and replaced-without-reason are refused with the next action", async () => {
    const h = harness();
    await h.useScript([
      ...planned("check gitea"),
      { name: "skip-ahead", when: after("propose_plan", "generation"), reply: setStep(3, "done") },
      {
        name: "no-reason",
        when: after("update_plan_step", "complete in order"),
        reply: setStep(1, "replaced"),
      },
      {
        name: "bad-reason",
        when: after("update_plan_step", "needs replaced_reason"),
        reply: setStep(1, "replaced", { replaced_reason: "felt like it" }),
      },
      {
        name: "good-reason",
        when: after("update_plan_step", "needs replaced_reason"),
        reply: setStep(1, "replaced", { replaced_reason: "wrong_diagnosis" }),
      },
      {
        name: "next",
        when: after("update_plan_step", '"status":"replaced"'),
        reply: { text: "Step 1 replaced; moving to step 2." },
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "check gitea");
    await requestTurn(h.deps, sessionId, "message");
    const results = await toolResults(h, sessionId, "update_plan_step");
    assert.match(results[0]!, /steps complete in order, and step 1 "Inspect gitea service" is still pending/);
    assert.match(results[1]!, /replaced needs replaced_reason, one of wrong_diagnosis/);
    assert.match(results[2]!, /replaced needs replaced_reason/);
    assert.match(results[3]!, /Advance: step 2/);
    const steps = await planSteps(h, sessionId);
    assert.deepEqual(
      steps.map((s) => [s.status, s.replaced_reason]),
      [
        ["replaced", "wrong_diagnosis"],
        ["pending", null],
        ["pending", null],
        ["pending", null],
      ],
    );
    assert.deepEqual(h.model.unmatched, []);
  });

  test("a plan with a mutation waits for approval: the turn ends after propose_plan", async () => {
    const h = harness();
    await h.useScript([
      ...planned("restart gitea", [{ title: "Restart gitea", target: "lxc:gitea", risk: "config_mutation" }]),
      // Would run immediately if the structure did not end the turn:
      { name: "eager", when: after("propose_plan"), reply: setStep(1, "running") },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "restart gitea");
    const result = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(result, { status: "ran", turns: ["stopped"] });
    assert.deepEqual(h.model.remaining(), ["eager"]);
    assert.equal((await sessionRow(h, sessionId)).status, "awaiting_approval");
    const plan = await h.store.db
      .selectFrom("plans")
      .selectAll()
      .where("session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(plan.needs_approval, true);
    assert.equal(plan.status, "proposed");
    // Approved with a reaction (no message in the thread): the consent turn still resumes, with a short note.
    h.model.push({
      name: "approved",
      when: match.lastSystemNote(/approved plan 1\. Advance: update_plan_step\(1, running\)/),
      reply: setStep(1, "running"),
    });
    h.model.push({
      name: "then",
      when: after("update_plan_step", '"status":"running"'),
      reply: { text: "Restarting." },
    });
    await approvePlanAsOperator(h, sessionId, { by: "op" });
    assert.deepEqual(await requestTurn(h.deps, sessionId, "consent"), { status: "ran", turns: ["answered"] });
    assert.equal((await sessionRow(h, sessionId)).status, "executing");
    assert.deepEqual(
      await requestTurn(h.deps, sessionId, "consent"),
      { status: "idle" },
      "a repeated consent adds nothing",
    );
  });

  test("run before a plan: a mutation is refused with the next action, research stays allowed", async () => {
    const h = harness();
    await h.useScript([
      {
        name: "eager-run",
        when: match.lastUserMessage("fix gitea"),
        reply: call("run", { target: "lxc:gitea", command: "systemctl restart gitea", purpose: "fix it" }),
      },
      {
        name: "comply",
        when: after("run", /Refused \(plan_/),
        reply: call("set_goal", { goal: "fix gitea" }),
      },
      {
        name: "plan",
        when: after("set_goal"),
        reply: call("propose_plan", {
          steps: [{ title: "Restart gitea", target: "lxc:gitea", risk: "config_mutation" }],
        }),
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "fix gitea please");
    const result = await requestTurn(h.deps, sessionId, "message");
    assert.deepEqual(result, { status: "ran", turns: ["stopped"] });
    const [refusal] = await toolResults(h, sessionId, "run");
    assert.match(refusal!, /Refused \(plan_(first|required)\)/);
    assert.match(refusal!, /propose_plan/);
    assert.deepEqual(await sessionExecutions(h, sessionId), []);
    assert.deepEqual(h.model.unmatched, []);
  });

  test("ask_operator ends the turn; the next operator message answers it and resumes", async () => {
    const h = harness();
    await h.useScript([
      {
        name: "ask",
        when: match.lastUserMessage("nfs"),
        reply: call("ask_operator", { prompt: "Fix in place or migrate?", options: ["fix", "migrate"] }),
      },
      { name: "eager", when: after("ask_operator"), reply: { text: "I will just pick one." } },
      { name: "answered", when: match.lastUserMessage("migrate"), reply: { text: "Migrating, then." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "the nfs export hangs");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["stopped"] });
    assert.deepEqual(h.model.remaining(), ["eager", "answered"]);
    assert.equal((await sessionRow(h, sessionId)).status, "awaiting_input");
    assert.ok(h.published.some((e) => e.type === "question.raised"));
    await h.say(sessionId, "migrate");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "answer"), { status: "ran", turns: ["answered"] });
    const question = await h.store.db
      .selectFrom("questions")
      .selectAll()
      .where("session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([question.status, question.answer], ["answered", "migrate"]);
    assert.equal((await sessionRow(h, sessionId)).status, "planning");
  });

  test("a new direction: set_goal closes the old goal and its open steps, so a new plan is accepted", async () => {
    const h = harness();
    await h.useScript([
      ...planned("check gitea"),
      { name: "start", when: after("propose_plan", '"generation":1'), reply: setStep(1, "running") },
      { name: "said", when: after("update_plan_step"), reply: { text: "Inspecting." } },
      {
        name: "pivot",
        when: match.lastUserMessage("forget that"),
        reply: call("set_goal", { goal: "Upgrade nextcloud" }),
      },
      {
        name: "replan",
        when: after("set_goal", "superseded_goal"),
        reply: call("propose_plan", { steps: [{ title: "Read nextcloud version", risk: "read_only" }] }),
      },
      { name: "ok", when: after("propose_plan", '"generation":2'), reply: { text: "New plan ready." } },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "check gitea");
    await requestTurn(h.deps, sessionId, "message");
    await h.say(sessionId, "forget that, upgrade nextcloud instead");
    await requestTurn(h.deps, sessionId, "message");
    const goals = await h.store.db
      .selectFrom("goals")
      .selectAll()
      .where("session_id", "=", sessionId)
      .orderBy("id")
      .execute();
    assert.deepEqual(
      goals.map((g) => [g.goal, g.status, g.summary]),
      [
        ["check gitea", "superseded", "superseded by: Upgrade nextcloud"],
        ["Upgrade nextcloud", "active", null],
      ],
    );
    const old = await h.store.db
      .selectFrom("plan_steps")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("generation", "=", 1)
      .execute();
    assert.ok(old.every((step) => step.status === "replaced" && step.replaced_reason === "superseded"));
    assert.deepEqual(h.model.unmatched, []);
  });

  test("a run that must wait for the operator ends the turn (refused before approval, or approval requested)", async () => {
    const h = harness();
    await h.useScript([
      ...planned("clean gitea", [{ title: "Remove gitea cache", target: "lxc:gitea", risk: "destructive" }]),
      {
        name: "early-run",
        when: match.lastUserMessage("just do it"),
        reply: call("run", {
          target: "lxc:gitea",
          command: "rm -rf /var/lib/gitea/cache",
          purpose: "clean",
          step_seq: 1,
        }),
      },
      { name: "eager", when: after("run"), reply: call("whoami") },
      {
        name: "approved-run",
        when: match.lastSystemNote(/approved plan 1/),
        reply: call("run", {
          target: "lxc:gitea",
          command: "rm -rf /var/lib/gitea/cache",
          purpose: "clean",
          step_seq: 1,
        }),
      },
    ]);
    const sessionId = await h.newSession();
    await h.say(sessionId, "clean gitea cache please");
    await requestTurn(h.deps, sessionId, "message");
    await h.say(sessionId, "just do it");
    assert.deepEqual(await requestTurn(h.deps, sessionId, "message"), { status: "ran", turns: ["stopped"] });
    assert.match((await toolResults(h, sessionId, "run"))[0]!, /end your turn/i);
    await approvePlanAsOperator(h, sessionId, { by: "op", via: "button" });
    assert.deepEqual(await requestTurn(h.deps, sessionId, "consent"), { status: "ran", turns: ["stopped"] });
    assert.match((await toolResults(h, sessionId, "run"))[1]!, /"status":"pending_approval"/);
    assert.deepEqual(h.model.remaining(), ["eager"]);
    const executions = await h.store.db
      .selectFrom("executions")
      .select("status")
      .where("session_id", "=", sessionId)
      .execute();
    assert.deepEqual(executions, [{ status: "pending_approval" }]);
  });
});
