import type { PlanState, RunSessionFacts } from "../../policy/decide-run.ts";
import type { SessionFacts } from "../../store/run-gate-facts.ts";
import { TERMINAL_SESSION_STATUSES } from "../../store/sessions.ts";

/** The session part of the run gate's facts, in policy's words. */
export function runSessionFacts(sessionId: string | null, facts: SessionFacts | undefined): RunSessionFacts {
  if (sessionId === null) return { state: "absent" };
  if (!facts) return { state: "unknown", id: sessionId };
  const { session } = facts;
  if (TERMINAL_SESSION_STATUSES.includes(session.status)) return { state: "closed", status: session.status };
  return {
    state: "open",
    planState: planState(facts.plan),
    assentWindowOpen: facts.assentWindowOpen,
    destructiveWindowOpenForTarget: facts.destructiveWindowOpen,
    pendingApprovalExecutionId: facts.pendingApproval
      ? (facts.pendingApproval.executionId ?? facts.pendingApproval.approvalId)
      : null,
    failuresOfKey: facts.failuresOfKey,
    preplanReadOnlyCalls: session.preplan_read_only_calls,
  };
}

/** Store plan statuses in policy's words; a superseded plan is no plan. */
function planState(plan: SessionFacts["plan"]): PlanState {
  switch (plan?.status) {
    case "proposed":
      return "proposed";
    case "approved":
      return "approved";
    case "denied":
      return "denied";
    default:
      return "none";
  }
}
