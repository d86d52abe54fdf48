import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** One registry per process; capabilities add their own metrics to it. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "oikos_process_" });
  return {
    registry,
    httpRequests: new Counter({
      name: "oikos_http_requests_total",
      help: "HTTP requests served, by route and status",
      labelNames: ["route", "status"] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: "oikos_job_duration_seconds",
      help: "Queue job handling time, by queue and result",
      labelNames: ["queue", "result"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
