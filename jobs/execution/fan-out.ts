import type { ExecutionView } from "./execution-view.ts";
import { executionView } from "./execution-view.ts";
import type { RunService } from "./run-service.ts";
import { type RunOutcome, refused } from "./run-service.ts";
import { waitForResult } from "./wait-for-result.ts";

export const MAX_FAN_OUT_TARGETS = 64;

export interface FanOutRequest {
  sessionId: string | null;
  targets: readonly string[];
  command: string | ((target: string) => string);
  purpose: string;
  requestedBy: string;
  timeoutMs?: number;
}

export type FanOutItem =
  | { target: string; ok: true; execution: ExecutionView }
  | { target: string; ok: false; code: string; reason: string; nextStep: string };

/**
 * One read-only command on many targets at once (run_many, inspect_path): every target passes the
 * same gates as `run` (classification recorded, pre-plan research cap checked), only read-only
 * commands are accepted, each becomes its own execution, and the pool runs them in parallel.
 * Per-target results: a refused target does not stop the others.
 */
export async function runMany(
  service: RunService,
  request: FanOutRequest,
): Promise<FanOutItem[] | RunOutcome> {
  const targets = [...new Set(request.targets)];
  if (targets.length === 0) return refused("no_targets", "no targets given", "pass one or more entity slugs");
  if (targets.length > MAX_FAN_OUT_TARGETS) {
    return refused(
      "too_many_targets",
      `${targets.length} targets; at most ${MAX_FAN_OUT_TARGETS}`,
      "split the targets into batches",
    );
  }
  const commandFor = (target: string) =>
    typeof request.command === "string" ? request.command : request.command(target);
  // The pre-plan cap counts a fan-out once: the first target that needs the slot takes it for all.
  let slot: Promise<boolean> | undefined;
  const preplanSlot = () => {
    slot ??= request.sessionId ? service.takePreplanSlot(request.sessionId) : Promise.resolve(false);
    return slot;
  };
  const started = await Promise.all(
    targets.map(async (target): Promise<FanOutItem | { target: string; executionId: string }> => {
      const run = { ...request, target, command: commandFor(target) };
      const gated = await service.gate(run, { readOnlyOnly: true, preplanSlot });
      if (!gated.ok) return { target, ok: false, ...without(gated.refusal) };
      if (gated.decision.kind !== "allow") {
        await gated.recorded;
        return {
          target,
          ok: false,
          code: "needs_approval",
          reason: gated.decision.reason,
          nextStep: "use run for this target (it goes through approval)",
        };
      }
      const [execution] = await Promise.all([service.enqueue(run, gated), gated.recorded]);
      return { target, executionId: execution.id };
    }),
  );
  const { db, events, waitMs } = service.options;
  return Promise.all(
    started.map(async (item): Promise<FanOutItem> => {
      if (!("executionId" in item)) return item;
      const row = await waitForResult(db, events, item.executionId, waitMs);
      if (!row)
        return {
          target: item.target,
          ok: false,
          code: "vanished",
          reason: `execution ${item.executionId} was not found after it was queued`,
          nextStep: `call get_execution_status("${item.executionId}"); do not re-run`,
        };
      return { target: item.target, ok: true, execution: executionView(row) };
    }),
  );
}

function without(refusal: { code: string; reason: string; nextStep: string }) {
  return { code: refusal.code, reason: refusal.reason, nextStep: refusal.nextStep };
}

/** mount, df, ls -la and stat of one path, one shell line, read-only. */
export function inspectPathCommand(path: string): string {
  const quoted = `'${path.replaceAll("'", `'\\''`)}'`;
  return [
    `echo '== mount'`,
    `findmnt -T ${quoted}`,
    `echo '== df'`,
    `df -h ${quoted}`,
    `echo '== ls -la'`,
    `ls -la ${quoted}`,
    `echo '== stat'`,
    `stat ${quoted}`,
  ].join("; ");
}
