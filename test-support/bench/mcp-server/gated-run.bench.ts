import { createTestSession, startExecutionStack } from "../../jobs/execution/execution-stack.ts";
import { callTool } from "../../mcp-server/call-tool.ts";
import { median } from "../../median.ts";
import { sshLabUnavailable, startSshLab } from "../../sshd/ssh-lab.ts";

const ROUNDS = 60;
const WARMUP = 5;

/**
 * gated_run_overhead_ms_p50: MCP `run` of a read-only `true` on a loopback sshd target → result
 * (gates, classification record, execution row, queue, worker, pooled SSH, result row, event),
 * minus the bare pooled SSH round trip of `true` measured in the same run, interleaved.
 * Uses Postgres / Redis when DATABASE_URL / REDIS_URL are set (the figure TARGETS.md means).
 */
export default async function (): Promise<Record<string, number>> {
  const missing = await sshLabUnavailable();
  if (missing) {
    process.stderr.write(`gated-run bench skipped: ${missing}\n`);
    return {};
  }
  const lab = await startSshLab({ hosts: [{ name: "bench" }] });
  const stack = await startExecutionStack({ lab, fileUrl: import.meta.url, waitMs: 10_000 });
  try {
    const host = lab.host("bench");
    const endpoint = { host: host.host, port: host.port, username: host.username };
    const session = await createTestSession(stack, "bench-session", { status: "approved" });
    const gated: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      let started = performance.now();
      const result = await callTool(
        stack.client,
        "run",
        { target: "host:bench", command: "true", purpose: "bench" },
        session,
      );
      const gatedMs = performance.now() - started;
      if (result.isError || (result.json as { status?: string }).status !== "completed") {
        throw new Error(`gated run did not complete: ${result.text}`);
      }
      started = performance.now();
      await stack.pool.run(endpoint, "true");
      const bareMs = performance.now() - started;
      if (i >= WARMUP) {
        gated.push(gatedMs);
        bare.push(bareMs);
      }
    }
    const gatedP50 = median(gated);
    const bareP50 = median(bare);
    return {
      gated_run_overhead_ms_p50: gatedP50 - bareP50,
      gated_run_ms_p50: gatedP50,
      ssh_roundtrip_ms_p50: bareP50,
    };
  } finally {
    await stack.close();
    await lab.stop();
  }
}

/** Measured on the deployment DATABASE_URL / REDIS_URL select (scripts/bench.ts names it with each figure). */
export const usesStore = true;
