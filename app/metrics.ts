import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { ADAPTER_STATES, type AdapterState } from "../bot/adapter-status.ts";

/** One registry per process; capabilities add their own metrics to it. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "oikos_process_" });
  const chatAdapter = new Gauge({
    name: "oikos_chat_adapter_state",
    help: "1 for the state each configured chat platform is in now (connected, unreachable, refused …), 0 for the others",
    labelNames: ["platform", "state"] as const,
    registers: [registry],
  });
  return {
    /** Sets a platform's state: its series is 1, the others of the platform 0. */
    chatAdapterState(platform: string, state: AdapterState): void {
      for (const s of ADAPTER_STATES) chatAdapter.set({ platform, state: s }, s === state ? 1 : 0);
    },
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
