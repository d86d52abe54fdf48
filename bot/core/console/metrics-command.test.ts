import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { approvePlan } from "../../../store/consent.ts";
import { createExecution, transitionExecution } from "../../../store/executions.ts";
import { recordFeedback } from "../../../store/feedback.ts";
import { insertPlanGeneration } from "../../../store/plans.ts";
import { createSession } from "../../../store/sessions.ts";
import { recordTokenUsage } from "../../../store/token-usage.ts";
import {
  type ConsolePlatforms,
  PLATFORMS,
  startConsolePlatforms,
} from "../../../test-support/bot/console-platforms.ts";

const DAY = 86_400_000;

// `!metrics [7|30]`: the quality figures for a window, from the store, with no model configured.
describe("metrics command", () => {
  let c: ConsolePlatforms;

  before(async () => {
    c = await startConsolePlatforms();
    const db = c.h.store.db;
    const s = await createSession(db, {
      platform: "shell",
      room: "terminal",
      thread: "m1",
      createdBy: "alice",
    });
    await db
      .updateTable("sessions")
      .set({ status: "done", outcome: "success", closed_at: new Date() })
      .where("id", "=", s.id)
      .execute();
    await recordFeedback(db, {
      sessionId: s.id,
      outcome: "success",
      planAdherence: 1,
      rootCause: null,
      notes: null,
    });
    for (const [command, exit] of [
      ["uptime", 0],
      ["df -h", 0],
      ["zpool status", 1],
    ] as const) {
      const e = await createExecution(db, {
        sessionId: s.id,
        target: "local",
        command,
        commandKey: `local:${command}`,
        risk: "read_only",
        purpose: "check",
        requestedBy: "agent",
        status: "queued",
        timeoutMs: 60_000,
        deadlineAt: new Date(Date.now() + 3_600_000),
        planGeneration: null,
        stepSeq: null,
      });
      await transitionExecution(db, e.id, { from: "queued", to: "running", now: new Date() });
      await transitionExecution(db, e.id, {
        from: "running",
        to: exit === 0 ? "completed" : "failed",
        now: new Date(),
        set: { exit_code: exit },
      });
    }
    // Two plans asked of the operator: one approved 2 minutes after it was proposed, one still waiting.
    const proposed = new Date(Date.now() - 5 * 60_000);
    for (const thread of ["p1", "p2"]) {
      const planned = await createSession(db, {
        platform: "shell",
        room: "terminal",
        thread,
        createdBy: "alice",
      });
      const { generation } = await insertPlanGeneration(
        db,
        planned.id,
        [{ title: "restart gitea", risk: "config_mutation" }],
        { needsApproval: true, now: proposed },
      );
      if (thread === "p1")
        await approvePlan(db, {
          sessionId: planned.id,
          generation,
          by: "alice",
          via: "reaction",
          now: new Date(proposed.getTime() + 120_000),
        });
    }
    await recordTokenUsage(db, {
      sessionId: s.id,
      model: "m",
      promptTokens: 900,
      completionTokens: 100,
      totalTokens: 1000,
    });
    await recordTokenUsage(
      db,
      { sessionId: s.id, model: "m", promptTokens: 9000, completionTokens: 1000, totalTokens: 10000 },
      new Date(Date.now() - 10 * DAY),
    );
  });
  after(async () => c.close());

  test("the last 7 days by default, 30 on request", async () => {
    const week = await c.ask("matrix", "operator", "metrics");
    assert.match(week, /Quality, last 7 days:/);
    assert.match(week, /tasks closed: 1 \(success 1\)/);
    assert.match(week, /plan adherence: 100% of steps done on average; 1\/1 plans followed in full/);
    assert.match(week, /executions: 2\/3 succeeded \(67%\); by risk: read_only 3/);
    assert.match(week, /model: 1 calls, 1,000 tokens/);
    assert.match(week, /plan approvals: (approved 1, pending 1|pending 1, approved 1); median wait 2 min/);
    assert.match(week, /\n {2}approvals: none/, "no command approval was asked");
    assert.match(await c.ask("slack", "operator", "metrics 30"), /model: 2 calls, 11,000 tokens/);
    assert.match(await c.ask("shell", "operator", "metrics 90"), /days: use one of: 7, 30/);
  });

  for (const platform of PLATFORMS)
    test(`${platform}: a stranger is refused`, async () => {
      assert.match(
        await c.ask(platform, "stranger", "metrics"),
        /I only take instructions from this room's operators/,
      );
    });
});
