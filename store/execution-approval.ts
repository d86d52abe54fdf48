import { type Approval, createExecutionApproval, type NewExecutionApproval } from "./approvals.ts";
import { type AuditRecord, recordAudit, type WriteContext } from "./audit.ts";
import type { Db } from "./db.ts";
import { attachApproval, createExecution, type NewExecution } from "./executions.ts";

export interface ExecutionApprovalRequest {
  execution: NewExecution & { status: "pending_approval" };
  approval: Omit<NewExecutionApproval, "executionId">;
  /** The execution undoes this one (a rollback). */
  rollbackOf?: string;
  /** Audited in the same transaction, once the new execution's id is known. */
  audit?: { context: WriteContext; record: (executionId: string) => AuditRecord };
}

export type ExecutionApprovalResult =
  | { created: true; executionId: string; approvalId: string }
  /** Another approval of the session is pending (one at a time): nothing was written. */
  | { created: false; pending: Approval | undefined };

/** Thrown inside the transaction to undo the execution row when the approval lost the race. */
class ApprovalRaceLost {
  readonly pending: Approval | undefined;
  constructor(pending: Approval | undefined) {
    this.pending = pending;
  }
}

/**
 * An execution that waits for an operator and its approval, in one transaction: both exist (linked,
 * and audited when asked) or neither does.
 */
export async function createExecutionAwaitingApproval(
  db: Db,
  request: ExecutionApprovalRequest,
  now: Date,
): Promise<ExecutionApprovalResult> {
  return db
    .transaction()
    .execute(async (tx): Promise<ExecutionApprovalResult> => {
      const execution = await createExecution(tx, request.execution, now);
      const approval = await createExecutionApproval(
        tx,
        { ...request.approval, executionId: execution.id },
        now,
      );
      if (!approval.created) throw new ApprovalRaceLost(approval.pending);
      await attachApproval(tx, execution.id, approval.approval.id, {
        ...(request.rollbackOf ? { rollbackOf: request.rollbackOf } : {}),
      });
      if (request.audit) await recordAudit(tx, request.audit.context, request.audit.record(execution.id));
      return { created: true, executionId: execution.id, approvalId: approval.approval.id };
    })
    .catch((error: unknown) => {
      if (error instanceof ApprovalRaceLost) return { created: false, pending: error.pending };
      throw error;
    });
}
