import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { Registry } from "prom-client";
import { createExecutionApproval } from "../store/approvals.ts";
import { createExecution, transitionExecution } from "../store/executions.ts";
import { recordFeedback } from "../store/feedback.ts";
import { createSession } from "../store/sessions.ts";
import { recordTokenUsage } from "../store/token-usage.ts";
import { createTestStore, type TestStore } from "../test-support/store.ts";
import { createMetrics } from "./metrics.ts";
import { QUALITY_METRIC_NAMES, registerQualityMetrics } from "./quality-metrics.ts";

const DASHBOARD = new URL("../deploy/grafana/oikos-quality.json", import.meta.url);

describe("quality metrics from the store", () => {
  let store: TestStore;
  let registry: Registry;

  before(async () => {
    store = await createTestStore();
    registry = new Registry();
    registerQualityMetrics(registry, store.db);
    const db = store.db;
    const done = await createSession(db, {
      platform: "shell",
      room: "terminal",
      thread: "t1",
      createdBy: "alice",
    });
    await db
      .updateTable("sessions")
      .set({ status: "done", outcome: "partial", closed_at: new Date() })
      .where("id", "=", done.id)
      .execute();
    await recordFeedback(db, {
      sessionId: done.id,
      outcome: "partial",
      planAdherence: 0.5,
      rootCause: null,
      notes: null,
    });
    const execution = await createExecution(db, {
      sessionId: done.id,
      target: "local",
      command: "rm -rf /srv/cache",
      commandKey: "local:rm -rf /srv/cache",
      risk: "destructive",
      purpose: "free space",
      requestedBy: "agent",
      status: "pending_approval",
      timeoutMs: 60_000,
      deadlineAt: new Date(Date.now() + 3_600_000),
      planGeneration: null,
      stepSeq: null,
    });
    const asked = new Date(Date.now() - 120_000);
    const approval = await createExecutionApproval(
      db,
      {
        sessionId: done.id,
        executionId: execution.id,
        commandKey: execution.command_key,
        target: "local",
        risk: "destructive",
        expiresAt: new Date(Date.now() + 3_600_000),
      },
      asked,
    );
    assert.ok(approval.created);
    await db
      .updateTable("approvals")
      .set({ status: "denied", decided_at: new Date(asked.getTime() + 90_000), decided_by: "alice" })
      .where("id", "=", approval.approval.id)
      .execute();
    await transitionExecution(db, execution.id, { from: "pending_approval", to: "denied", now: new Date() });
    await db
      .insertInto("classifications")
      .values({
        session_id: done.id,
        target: "local",
        command: "qm stop 101",
        command_key: "k",
        risk: "destructive",
        reasons: "[]",
        decision: "refused:wrong_target",
      })
      .execute();
    await recordTokenUsage(db, {
      sessionId: done.id,
      model: "m1",
      promptTokens: 1000,
      completionTokens: 200,
      totalTokens: 1200,
    });
    await recordTokenUsage(db, {
      sessionId: done.id,
      model: "m1",
      promptTokens: 500,
      completionTokens: 100,
      totalTokens: 600,
    });
  });
  after(async () => store.dispose());

  test("every figure is exported with its labels, read at scrape time", async () => {
    const text = await registry.metrics();
    assert.match(text, /^oikos_tasks_total\{outcome="partial"\} 1$/m);
    assert.match(text, /^oikos_plan_adherence_ratio_bucket\{le="0\.5"\} 1$/m);
    assert.match(text, /^oikos_plan_adherence_ratio_bucket\{le="0\.25"\} 0$/m);
    assert.match(text, /^oikos_executions_total\{risk="destructive",status="denied"\} 1$/m);
    assert.match(text, /^oikos_approvals_total\{subject="execution",outcome="denied"\} 1$/m);
    assert.match(
      text,
      /^oikos_approval_latency_seconds_bucket\{le="60",subject="execution",outcome="denied"\} 0$/m,
    );
    assert.match(
      text,
      /^oikos_approval_latency_seconds_bucket\{le="300",subject="execution",outcome="denied"\} 1$/m,
    );
    assert.match(text, /^oikos_gate_refusals_total\{code="wrong_target"\} 1$/m);
    assert.match(text, /^oikos_model_calls_total\{model="m1"\} 2$/m);
    assert.match(text, /^oikos_model_tokens_total\{model="m1",kind="prompt"\} 1500$/m);
    assert.match(text, /^oikos_model_tokens_total\{model="m1",kind="completion"\} 300$/m);
    const again = await registry.metrics();
    assert.match(
      again,
      /^oikos_model_calls_total\{model="m1"\} 2$/m,
      "a second scrape reads totals again, never adds",
    );
  });

  test("the Grafana dashboard parses and uses only metric names oikos exports", async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
      panels: { targets: { expr: string }[] }[];
    };
    const metrics = createMetrics();
    registerQualityMetrics(metrics.registry, store.db);
    const exported = new Set(metrics.registry.getMetricsAsArray().map((m) => m.name));
    for (const name of QUALITY_METRIC_NAMES) assert.ok(exported.has(name), `${name} is registered`);
    const used = new Set<string>();
    for (const panel of dashboard.panels)
      for (const target of panel.targets)
        for (const [name] of target.expr.matchAll(/\boikos_[a-z_]+/g))
          used.add(name.replace(/_(bucket|sum|count)$/, ""));
    assert.ok(used.size >= QUALITY_METRIC_NAMES.length);
    for (const name of used)
      assert.ok(exported.has(name), `the dashboard uses ${name}, which oikos does not export`);
    for (const name of QUALITY_METRIC_NAMES) assert.ok(used.has(name), `the dashboard shows ${name}`);
  });
});
