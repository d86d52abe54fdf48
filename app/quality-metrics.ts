import { Counter, Histogram, type Registry } from "prom-client";
import type { Db } from "../store/db.ts";
import { type QualityFigures, qualityFigures } from "../store/quality-figures.ts";

/**
 * The quality figures on /metrics, read from the store at scrape time: every process (and a
 * restart) exports the same totals, whichever process did the work. Counters are totals since
 * the database began; Grafana's rate()/increase() give the windows. Each name is in
 * QUALITY_METRIC_NAMES, which the shipped dashboard is checked against.
 */
export const QUALITY_METRIC_NAMES = [
  "oikos_tasks_total",
  "oikos_plan_adherence_ratio",
  "oikos_executions_total",
  "oikos_approvals_total",
  "oikos_approval_latency_seconds",
  "oikos_gate_refusals_total",
  "oikos_model_calls_total",
  "oikos_model_tokens_total",
] as const;

export function registerQualityMetrics(registry: Registry, db: Db): void {
  // One store read per scrape, shared by every metric that scrape collects.
  let pending: Promise<QualityFigures> | undefined;
  const figures = () => {
    pending ??= qualityFigures(db).finally(() => {
      setImmediate(() => {
        pending = undefined;
      });
    });
    return pending;
  };
  const counter = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    fill: (f: QualityFigures, set: (labels: Record<L, string>, value: number) => void) => void,
  ) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const f = await figures();
        this.reset();
        fill(f, (labels, value) => {
          if (value > 0) this.inc(labels, value);
        });
      },
    });
  const histogram = (
    name: string,
    help: string,
    buckets: number[],
    labelNames: string[],
    values: (f: QualityFigures) => { labels: Record<string, string>; value: number }[],
  ) =>
    new Histogram({
      name,
      help,
      buckets,
      labelNames,
      registers: [registry],
      async collect() {
        const f = await figures();
        this.reset();
        for (const { labels, value } of values(f)) this.observe(labels, value);
      },
    });

  counter(
    "oikos_tasks_total",
    "Closed tasks by outcome (success, partial, failure)",
    ["outcome"],
    (f, set) => {
      for (const t of f.tasksByOutcome) set({ outcome: t.outcome }, t.count);
    },
  );
  histogram(
    "oikos_plan_adherence_ratio",
    "Share of a closed task's plan steps that were done (1 = the plan was followed)",
    [0.25, 0.5, 0.75, 0.9, 1],
    [],
    (f) => f.planAdherence.map((value) => ({ labels: {}, value })),
  );
  counter("oikos_executions_total", "Executions by risk and status", ["risk", "status"], (f, set) => {
    for (const e of f.executions) set({ risk: e.risk, status: e.status }, e.count);
  });
  counter(
    "oikos_approvals_total",
    "Decisions asked of an operator by subject (plan, execution, routing) and outcome (pending, approved, denied, expired, cancelled, superseded)",
    ["subject", "outcome"],
    (f, set) => {
      for (const a of f.approvals) set({ subject: a.subject, outcome: a.outcome }, a.count);
    },
  );
  histogram(
    "oikos_approval_latency_seconds",
    "Time from asking for an approval to its decision or expiry, by subject and outcome",
    [10, 30, 60, 300, 900, 1800, 3600, 7200],
    ["subject", "outcome"],
    (f) =>
      f.approvalLatency.map((a) => ({
        labels: { subject: a.subject, outcome: a.outcome },
        value: a.seconds,
      })),
  );
  counter("oikos_gate_refusals_total", "Run-gate refusals by refusal code", ["code"], (f, set) => {
    for (const r of f.refusals) set({ code: r.code }, r.count);
  });
  counter("oikos_model_calls_total", "Model calls by model", ["model"], (f, set) => {
    for (const t of f.tokens) set({ model: t.model }, t.calls);
  });
  counter(
    "oikos_model_tokens_total",
    "Model tokens by model and kind (prompt, completion)",
    ["model", "kind"],
    (f, set) => {
      for (const t of f.tokens) {
        set({ model: t.model, kind: "prompt" }, t.prompt);
        set({ model: t.model, kind: "completion" }, t.completion);
      }
    },
  );
}
