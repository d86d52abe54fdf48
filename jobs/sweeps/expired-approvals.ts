import { expireApprovals } from "../../store/approvals.ts";
import { approvalDecided, executionFinished } from "../../store/domain-events.ts";
import { transitionExecution } from "../../store/executions.ts";
import { type SweepContext, type SweepItem, sweepItem } from "./registry.ts";

/** Pending approvals past expiry become expired, and so does the execution waiting on each. */
export async function sweepExpiredApprovals(ctx: SweepContext): Promise<SweepItem[]> {
  const expired = await expireApprovals(ctx.db, ctx.now);
  const items: SweepItem[] = [];
  for (const approval of expired) {
    const item = await sweepItem(`approval ${approval.id} (session ${approval.session_id})`, async () => {
      await ctx.events.publish(
        approvalDecided({
          sessionId: approval.session_id,
          approvalId: approval.id,
          decision: "expired",
          by: "sweep",
          via: "sweep",
        }),
      );
      if (!approval.execution_id) return "expired";
      const execution = await transitionExecution(ctx.db, approval.execution_id, {
        from: "pending_approval",
        to: "expired",
        reason: "nobody decided on its approval in time",
        now: ctx.now,
      });
      if (execution) await ctx.events.publish(executionFinished(execution, "expired"));
      return `expired${execution ? `, execution ${execution.id} expired` : ""}`;
    });
    if (item) items.push(item);
  }
  return items;
}
