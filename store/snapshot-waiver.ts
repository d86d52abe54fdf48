import { OikosError } from "../base/errors.ts";
import { createExecutionApproval } from "./approvals.ts";
import { type Executor, recordAudit } from "./audit.ts";
import type { Db } from "./db.ts";
import { approvalRequested, type DomainEvent } from "./domain-events.ts";
import type { ExecutionSnapshot } from "./execution-snapshot.ts";
import {
  type Execution,
  reattachApproval,
  recordExecutionSnapshot,
  transitionExecution,
} from "./executions.ts";
import { recordPreview, shownPreviewOfApproval } from "./previews.ts";

/** What an operator types to run a destructive change whose snapshot failed. */
export function waiverPhrase(target: string): string {
  return `run ${target} without a snapshot`;
}

export type SnapshotWaiverRequest =
  | { asked: true; approvalId: string; event: DomainEvent }
  | { asked: false; reason: string };

/**
 * The snapshot before an approved change failed and the change must not run unprotected
 * (execution.snapshotFailure: ask): in one transaction the running execution goes back to
 * `pending_approval` (nothing ran), a new approval of it asks the operator whether to run it without
 * a snapshot (its card shows why: the record's `asked` names it), the preview the first card showed
 * carries over, and it is audited (`snapshot.failed_asked`). The worker that claimed it lets go.
 * Not asked (the reason says why) when the execution belongs to no task thread or another approval is
 * already waiting there: then the caller fails it, nothing ran.
 */
export async function askToRunWithoutSnapshot(
  db: Db,
  input: {
    execution: Execution;
    workerId: string;
    snapshot: Extract<ExecutionSnapshot, { state: "none" }>;
    ttlMs: number;
    now: Date;
  },
): Promise<SnapshotWaiverRequest> {
  const { execution, now } = input;
  const sessionId = execution.session_id;
  if (!sessionId)
    return { asked: false, reason: "it belongs to no task thread where an operator could decide" };
  return db.transaction().execute(async (tx: Executor): Promise<SnapshotWaiverRequest> => {
    const expiresAt = new Date(now.getTime() + input.ttlMs);
    const created = await createExecutionApproval(
      tx,
      {
        sessionId,
        executionId: execution.id,
        commandKey: execution.command_key,
        target: execution.target,
        risk: execution.risk,
        // destructive and unprotected: the words say both
        requiredPhrase: execution.risk === "destructive" ? waiverPhrase(execution.target) : null,
        expiresAt,
      },
      now,
    );
    if (!created.created)
      return {
        asked: false,
        reason: `approval ${created.pending?.id ?? "?"} is already waiting in that thread, so it could not be asked`,
      };
    const waiting = await transitionExecution(tx, execution.id, {
      from: "running",
      to: "pending_approval",
      workerId: input.workerId,
      reason: `the snapshot before it failed; waiting for an operator to run it without one (${input.snapshot.reason})`,
      now,
      set: { worker_id: null, heartbeat_at: null },
    });
    if (!waiting)
      throw new OikosError(
        "execution_moved",
        `Execution ${execution.id} was moved meanwhile (cancelled, expired or taken by another worker); nothing was asked.`,
      );
    await reattachApproval(tx, execution.id, created.approval.id, expiresAt);
    await recordExecutionSnapshot(tx, execution.id, { ...input.snapshot, asked: created.approval.id });
    if (execution.approval_id) {
      const shown = await shownPreviewOfApproval(tx, execution.approval_id);
      if (shown)
        await recordPreview(tx, {
          sessionId,
          executionId: execution.id,
          approvalId: created.approval.id,
          purpose: "shown",
          preview: shown.preview,
        });
    }
    await recordAudit(
      tx,
      { by: "oikos", sessionId },
      {
        action: "snapshot.failed_asked",
        subject: execution.id,
        details: { approvalId: created.approval.id, reason: input.snapshot.reason, target: execution.target },
      },
    );
    return {
      asked: true,
      approvalId: created.approval.id,
      event: approvalRequested({ sessionId, approvalId: created.approval.id, executionId: execution.id }),
    };
  });
}
