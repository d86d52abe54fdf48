import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startHttpServer } from "../app/http-server.ts";
import { silentLogger } from "../base/logger.ts";
import { sshLabUnavailable } from "../test-support/sshd/ssh-lab.ts";
import { loadScenarios } from "./harness/manifest.ts";
import { runScenario } from "./harness/run-scenario.ts";
import { Homelab } from "./lab/homelab.ts";

// The quality figures reach Prometheus: after a scenario ran on the composed app, its /metrics
// shows the task, executions, approvals and model calls of that run.
const unavailable = await sshLabUnavailable();
const SCENARIO = "docker-compose-read-only-one-approval";

let homelab: Homelab;
const skip = unavailable ? `sshd unavailable: ${unavailable}` : false;
before(async () => {
  if (skip) return;
  const scenario = (await loadScenarios()).find((s) => s.name === SCENARIO)!;
  homelab = await Homelab.start(scenario.hosts.map((h) => h.name));
});
after(() => homelab?.stop());

test("/metrics carries the quality figures after an eval scenario ran", { skip }, async () => {
  const scenario = (await loadScenarios()).find((s) => s.name === SCENARIO);
  assert.ok(scenario, `scenario ${SCENARIO} exists`);
  let scraped = "";
  const result = await runScenario(scenario, {
    homelab,
    inspect: async (system) => {
      const http = await startHttpServer({
        host: "127.0.0.1",
        port: 0,
        logger: silentLogger(),
        metrics: system.composition.ctx.metrics,
        health: async () => ({ status: "ok" }),
      });
      try {
        scraped = await (await fetch(`${http.url}/metrics`)).text();
      } finally {
        await http.close();
      }
    },
  });
  assert.deepEqual(result.failures, []);
  assert.match(scraped, /^oikos_executions_total\{risk="read_only",status="completed"\} [1-9]\d*$/m);
  assert.match(scraped, /^oikos_model_calls_total\{model="scripted"\} [1-9]\d*$/m);
  assert.match(scraped, /^oikos_model_tokens_total\{model="scripted",kind="prompt"\} \d+$/m);
  assert.match(scraped, /^# TYPE oikos_tasks_total counter$/m);
  assert.match(scraped, /^# TYPE oikos_approval_latency_seconds histogram$/m);
  assert.match(scraped, /^# TYPE oikos_gate_refusals_total counter$/m);
  assert.match(scraped, /^oikos_plan_adherence_ratio_count \d+$/m);
});
