import { executionFinished } from "../../store/domain-events.ts";
import { findStaleExecutions, transitionExecution } from "../../store/executions.ts";
import { recoverExecution } from "../execution/execute-worker.ts";
import { type SweepContext, type SweepItem, sweepItem } from "./registry.ts";

/**
 * Open executions nobody will finish: a running row whose worker stopped heartbeating is recovered
 * (mutating → interrupted and reported, read-only → retried); a running row past its deadline with
 * a live heartbeat → timed_out; approved or queued rows past their deadline → expired.
 */
export async function sweepStaleExecutions(ctx: SweepContext): Promise<SweepItem[]> {
  const rows = await findStaleExecutions(ctx.db, { now: ctx.now, heartbeatStaleMs: ctx.heartbeatStaleMs });
  const items: SweepItem[] = [];
  const heartbeatBefore = ctx.now.getTime() - ctx.heartbeatStaleMs;
  for (const row of rows) {
    const item = await sweepItem(`execution ${row.id} (${row.status}, ${row.target})`, async () => {
      if (row.status === "running" && (row.heartbeat_at?.getTime() ?? 0) < heartbeatBefore) {
        const since = row.heartbeat_at?.toISOString() ?? "never";
        return recoverExecution(ctx, row, `its worker stopped heartbeating (last ${since})`);
      }
      const to = row.status === "running" ? "timed_out" : "expired";
      const reason =
        to === "timed_out"
          ? "ran past its deadline without the worker reporting a result"
          : `was ${row.status} past its deadline and never started`;
      const moved = await transitionExecution(ctx.db, row.id, {
        from: row.status as "running" | "approved" | "queued",
        to,
        reason,
        now: ctx.now,
      });
      if (!moved) return null;
      await ctx.events.publish(executionFinished(moved, to));
      return `${to}: ${reason}`;
    });
    if (item) items.push(item);
  }
  return items;
}
