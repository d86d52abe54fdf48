import type { Kysely } from "kysely";
import type { Risk } from "../../policy/risk.ts";
import { pendingExecutionApproval } from "../../store/approvals.ts";
import { countFailuresOfKey } from "../../store/executions.ts";
import type { Database, Session } from "../../store/schema.ts";
import { hasOpenWindow } from "../../store/windows.ts";
import type { RunGateFacts } from "./run-policy.ts";

/** Everything the risk gate needs, read from the store for this session and target only. */
export async function gatherRunFacts(
  db: Kysely<Database>,
  input: {
    session: Session;
    risk: Risk;
    targetSlug: string;
    targetType: string;
    commandKey: string;
    selfTargetDisruption: boolean;
    confirmAction: string;
    now: Date;
  },
): Promise<RunGateFacts> {
  const { session, now } = input;
  const [plan, assent, destructive, pending, failures] = await Promise.all([
    session.requires_replan || session.plan_generation === 0
      ? Promise.resolve(undefined)
      : db
          .selectFrom("plans")
          .select(["generation", "status"])
          .where("session_id", "=", session.id)
          .where("generation", "=", session.plan_generation)
          .executeTakeFirst(),
    hasOpenWindow(db, { sessionId: session.id, kind: "assent" }, now),
    hasOpenWindow(db, { sessionId: session.id, kind: "destructive", target: input.targetSlug }, now),
    pendingExecutionApproval(db, session.id),
    countFailuresOfKey(db, session.id, input.commandKey),
  ]);
  return {
    risk: input.risk,
    targetSlug: input.targetSlug,
    targetType: input.targetType,
    plan: plan ? { generation: plan.generation, status: plan.status } : null,
    // The assent window belongs to an approved plan: a replaced or unapproved plan has none.
    assentWindowOpen: assent && plan?.status === "approved",
    destructiveWindowOpen: destructive,
    pendingApproval: pending ? { approvalId: pending.id, executionId: pending.execution_id } : null,
    failuresOfKey: failures,
    preplanReadOnlyCalls: session.preplan_read_only_calls,
    selfTargetDisruption: input.selfTargetDisruption,
    confirmAction: input.confirmAction,
  };
}
