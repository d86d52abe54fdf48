import { type Refusal, refusal } from "../../policy/refusals.ts";
import { type ExecutionResult, type RunService, resultOf } from "./run-service.ts";
import { waitForResult } from "./wait-for-result.ts";

/** A 100-host fleet in one call; the tool result gives each target an equal share of the model's budget. */
export const MAX_FAN_OUT_TARGETS = 128;

export interface FanOutRequest {
  sessionId: string | null;
  targets: readonly string[];
  command: string | ((target: string) => string);
  purpose: string;
  requestedBy: string;
  timeoutMs?: number;
}

/** One target's result: its execution, or policy's refusal for it. */
export interface FanOutItem {
  target: string;
  outcome: ExecutionResult | Refusal;
}

/**
 * One read-only command on many targets at once (run_many, inspect_path): every target passes the
 * same gates as `run` (classification recorded, pre-plan research cap checked), only read-only
 * commands are accepted, each becomes its own execution, and the pool runs them in parallel.
 * Per-target results: a refused target does not stop the others.
 */
export async function runMany(service: RunService, request: FanOutRequest): Promise<FanOutItem[] | Refusal> {
  const targets = [...new Set(request.targets)];
  if (targets.length === 0) return refusal("no_targets", "no targets given");
  if (targets.length > MAX_FAN_OUT_TARGETS) {
    return refusal("too_many_targets", `${targets.length} targets; at most ${MAX_FAN_OUT_TARGETS}`);
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
      if (gated.kind === "refused") return { target, outcome: gated };
      // Read-only only: the gate refused anything else, and read-only never waits for approval.
      if (gated.decision.kind !== "allow")
        throw new Error(`read-only fan-out gated for approval on ${target}`);
      const [execution] = await Promise.all([service.enqueue(run, gated), gated.recorded]);
      return { target, executionId: execution.id };
    }),
  );
  const { db, events, waitMs } = service.options;
  return Promise.all(
    started.map(async (item): Promise<FanOutItem> => {
      if (!("executionId" in item)) return item;
      const row = await waitForResult(db, events, item.executionId, waitMs);
      if (!row) {
        return {
          target: item.target,
          outcome: refusal(
            "execution_vanished",
            `execution ${item.executionId} was not found after it was queued`,
            `call get_execution_status("${item.executionId}"); do not re-run`,
          ),
        };
      }
      return { target: item.target, outcome: resultOf(row) };
    }),
  );
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
