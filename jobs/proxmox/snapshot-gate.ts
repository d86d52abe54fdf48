import { waitsForOperator } from "../../policy/snapshot-before.ts";
import { DEFAULT_APPROVAL_TTL_MS } from "../../store/approvals.ts";
import type { Entity } from "../../store/entities.ts";
import type { Execution } from "../../store/executions.ts";
import { askToRunWithoutSnapshot } from "../../store/snapshot-waiver.ts";
import type { EventBus } from "../events/port.ts";
import type { Target } from "../ssh/target.ts";
import { type SnapshotBeforeDeps, snapshotBeforeExecution } from "./snapshot-before.ts";

/** Whether the claimed change runs now, or waits for the operator, or must not run. */
export type SnapshotGate =
  | { kind: "run" }
  | { kind: "asked"; approvalId: string }
  | { kind: "not_run"; reason: string };

/**
 * The worker's step before running an approved change: the snapshot (jobs/proxmox/snapshot-before.ts),
 * then, when it failed and execution.snapshotFailure is `ask`, the change does not run: it goes back
 * to the operator with a card asking whether to run it without a snapshot (store/snapshot-waiver.ts),
 * or, when no card can be asked, it ends failed with why — never unprotected behind their back.
 */
export async function snapshotGate(
  deps: SnapshotBeforeDeps & {
    events: EventBus;
    logger?: { warn(object: object, message: string): void };
  },
  row: Execution,
  target: Target,
  entity: Entity,
  workerId: string,
): Promise<SnapshotGate> {
  let snapshot: Awaited<ReturnType<typeof snapshotBeforeExecution>>;
  try {
    snapshot = await snapshotBeforeExecution(deps, row, target, entity);
  } catch (error) {
    deps.logger?.warn({ err: error, executionId: row.id }, "snapshot before change failed");
    return { kind: "run" };
  }
  if (snapshot?.state !== "none" || !waitsForOperator(deps.config.onFailure ?? "ask", snapshot)) {
    return { kind: "run" };
  }
  const asked = await askToRunWithoutSnapshot(deps.db, {
    execution: row,
    workerId,
    snapshot,
    ttlMs: deps.config.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
    now: new Date(),
  });
  if (!asked.asked) {
    return {
      kind: "not_run",
      reason: `nothing ran: the snapshot before it failed (${snapshot.reason}) and ${asked.reason}; run it again once the guest can be snapshotted, or set execution.snapshotFailure: run`,
    };
  }
  await deps.events.publish(asked.event);
  return { kind: "asked", approvalId: asked.approvalId };
}
