import { DEFAULT_APPROVAL_TTL_MS, getApproval, pendingExecutionApproval } from "../../store/approvals.ts";
import { recordAudit } from "../../store/audit.ts";
import type { Db } from "../../store/db.ts";
import { approvalRequested } from "../../store/domain-events.ts";
import { createExecutionAwaitingApproval } from "../../store/execution-approval.ts";
import {
  readExecutionSnapshot,
  snapshotSubject,
  type TakenSnapshot,
} from "../../store/execution-snapshot.ts";
import {
  type Execution,
  getExecution,
  openRollbackOf,
  recordExecutionSnapshot,
} from "../../store/executions.ts";
import type { EventBus } from "../events/port.ts";
import { routingStamp } from "../execution/routing-stamp.ts";
import { resolveTarget, type TargetDefaults } from "../execution/target-resolver.ts";
import { RollbackRaceError } from "./errors.ts";
import type { NodeRunner } from "./node-runner.ts";
import { rollbackRefusal } from "./rollback-check.ts";

export interface RollbackDeps {
  db: Db;
  events: EventBus;
  targets: TargetDefaults;
  approvalTtlMs?: number;
  /** Reads the guest's (or datasets') snapshots first: a rollback Proxmox would refuse is said now. */
  runner?: NodeRunner;
}

export type RollbackRequest =
  | { ok: true; executionId: string; approvalId: string; phrase: string; snapshot: TakenSnapshot }
  | { ok: false; reason: string };

/**
 * The words an operator types to roll back: they name the guest (or the datasets), as every
 * destructive phrase names its target.
 */
export function rollbackPhrase(subject: string): string {
  return `rollback ${subject}`;
}

/**
 * `pct rollback <vmid> <snapshot>` (or qm), started again when the guest ran when the snapshot was
 * taken; for datasets `zfs rollback <dataset>@<snapshot>` each. No `-r`: when newer snapshots exist
 * ZFS refuses, and the operator decides about them (-r would destroy them).
 */
export function rollbackCommand(snapshot: TakenSnapshot): string {
  if (snapshot.tool === "zfs")
    return snapshot.datasets.map((dataset) => `zfs rollback ${dataset}@${snapshot.name}`).join(" && ");
  return `${snapshot.tool} rollback ${snapshot.vmid} ${snapshot.name}${snapshot.wasRunning ? " --start 1" : ""}`;
}

/** The audit's name for what is rolled back. */
function subjectDetails(snapshot: TakenSnapshot): { guest: string } | { host: string; datasets: string[] } {
  return snapshot.tool === "zfs"
    ? { host: snapshot.host, datasets: snapshot.datasets }
    : { guest: snapshot.guest };
}

/** The entity the rollback runs on: the guest's node, or the host holding the datasets. */
function rollbackTarget(snapshot: TakenSnapshot): string {
  return snapshot.tool === "zfs" ? snapshot.host : snapshot.node;
}

/**
 * An operator asked to undo an execution (⏪ on its card or summary, `!oikos rollback <execution>`).
 * Rollback is destructive, so it becomes an execution of its own on the guest's node, pending an
 * approval whose typed phrase names the guest, in the original task's thread; the worker runs it
 * once confirmed, and marks the snapshot rolled back when it completes. Audited.
 */
export async function requestRollback(
  deps: RollbackDeps,
  input: { executionId: string; by: string },
): Promise<RollbackRequest> {
  const { db } = deps;
  const original = await getExecution(db, input.executionId);
  if (!original) return { ok: false, reason: `there is no execution ${input.executionId}` };
  const snapshot = readExecutionSnapshot(original.snapshot);
  if (snapshot?.state !== "taken") {
    const why =
      snapshot?.state === "none"
        ? `no snapshot was taken before it (${snapshot.reason})`
        : "no snapshot was taken before it";
    return { ok: false, reason: `execution ${original.id} cannot be rolled back: ${why}` };
  }
  if (snapshot.removedAt)
    return {
      ok: false,
      reason: `its snapshot ${snapshot.name} was removed by retention on ${snapshot.removedAt}`,
    };
  if (snapshot.rolledBackAt)
    return { ok: false, reason: `${snapshotSubject(snapshot)} was already rolled back to ${snapshot.name}` };
  if (!original.session_id)
    return { ok: false, reason: `execution ${original.id} belongs to no task thread to confirm in` };
  const waiting = await openRollbackOf(db, original.id);
  if (waiting)
    return { ok: false, reason: `a rollback of it is already ${waiting.status} (execution ${waiting.id})` };
  const target = rollbackTarget(snapshot);
  const node = await resolveTarget(db, target, deps.targets);
  if (!node.ok)
    return {
      ok: false,
      reason: `its ${snapshot.tool === "zfs" ? "host" : "node"} cannot be reached: ${node.reason}`,
    };

  // ZFS rolls back to the newest snapshot only: say so before anyone types the phrase, with what is possible
  if (deps.runner) {
    const refused = await rollbackRefusal({ db, runner: deps.runner }, snapshot, node.target);
    if (refused) return { ok: false, reason: refused };
  }

  const sessionId = original.session_id;
  const pending = await pendingExecutionApproval(db, sessionId);
  if (pending) {
    return {
      ok: false,
      reason: `approval ${pending.id} is waiting in that thread: decide it first, then ask again`,
    };
  }
  const subject = snapshotSubject(snapshot);
  const phrase = rollbackPhrase(subject);
  const command = rollbackCommand(snapshot);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + (deps.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS));
  const made = await createExecutionAwaitingApproval(
    db,
    {
      execution: {
        sessionId,
        target,
        command,
        commandKey: command,
        risk: "destructive",
        purpose: `roll ${subject} back to snapshot ${snapshot.name}, taken before execution ${original.id}`,
        requestedBy: input.by,
        status: "pending_approval",
        timeoutMs: 600_000,
        deadlineAt: expiresAt,
        routing: routingStamp(node.target),
      },
      approval: {
        sessionId,
        commandKey: command,
        target,
        risk: "destructive",
        requiredPhrase: phrase,
        expiresAt,
      },
      rollbackOf: original.id,
      audit: {
        context: { by: input.by, sessionId },
        record: (rollback) => ({
          action: "rollback.requested",
          subject: original.id,
          details: { rollback, ...subjectDetails(snapshot), snapshot: snapshot.name, command },
        }),
      },
    },
    now,
  );
  // one pending approval per session: nothing was written (a rare race)
  if (!made.created) throw new RollbackRaceError();
  await deps.events.publish(
    approvalRequested({ sessionId, approvalId: made.approvalId, executionId: made.executionId }),
  );
  return { ok: true, ...made, phrase, snapshot };
}

/**
 * The worker's after-run step for a rollback execution: once it completed, the original execution's
 * snapshot says rolled back (by whom, when) and the rollback is audited.
 */
export async function noteRollbackFinished(db: Db, row: Execution, status: string): Promise<void> {
  if (!row.rollback_of || status !== "completed") return;
  const original = await getExecution(db, row.rollback_of);
  const snapshot = readExecutionSnapshot(original?.snapshot);
  if (!original || snapshot?.state !== "taken") return;
  const approval = row.approval_id ? await getApproval(db, row.approval_id) : undefined;
  const by = approval?.decided_by ?? row.requested_by;
  await recordExecutionSnapshot(db, original.id, {
    ...snapshot,
    rolledBackAt: new Date().toISOString(),
    rolledBackBy: by,
  });
  await recordAudit(
    db,
    { by, sessionId: original.session_id },
    {
      action: "rollback.done",
      subject: original.id,
      details: { rollback: row.id, ...subjectDetails(snapshot), snapshot: snapshot.name },
    },
  );
}
