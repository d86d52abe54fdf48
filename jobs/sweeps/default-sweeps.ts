import { sweepApprovalReminders } from "./approval-reminders.ts";
import { sweepExpiredApprovals } from "./expired-approvals.ts";
import { registerSweep } from "./registry.ts";
import { sweepStaleExecutions } from "./stale-executions.ts";

/**
 * Every sweep kind, registered for the `sweep` queue, the start-up pass and `oikos sweep`.
 * A new kind is one line here (`registerSweep("idle", sweepIdleSessions)`) plus its name in the
 * `sweep` payload enum of jobs/contracts.ts. Safe to call more than once.
 */
export function registerAllSweeps(): void {
  registerSweep("stale", sweepStaleExecutions);
  registerSweep("approvals", sweepExpiredApprovals);
  registerSweep("reminders", sweepApprovalReminders);
}
