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
 * same gates as `run`, only read-only commands are accepted, each becomes its own execution, and the
 * pool runs them in parallel. Per-target results: a refused target does not stop the others.
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
  let planless = false;
  const started = await Promise.all(
    targets.map(async (target): Promise<FanOutItem | { target: string; executionId: string }> => {
      const run = { ...request, target, command: commandFor(target) };
      const gated = await service.gate(run);
      if (!gated.ok) return { target, ok: false, ...without(gated.refusal) };
      if (gated.classification.risk !== "read_only") {
        return {
          target,
          ok: false,
          code: "not_read_only",
          reason: `on ${target} this command is ${gated.classification.risk}: ${gated.classification.reasons.join("; ")}`,
          nextStep:
            "fan-out runs read-only commands only; use run for each target (it goes through approval)",
        };
      }
      // Plan-first and the pre-plan cap count a fan-out once; the retry cap applies per target.
      const decision = service.options.policy.decide({ ...gated.facts, preplanReadOnlyCalls: 0 });
      if (decision.kind === "refuse")
        return {
          target,
          ok: false,
          code: decision.code,
          reason: decision.reason,
          nextStep: decision.nextStep,
        };
      const execution = await service.enqueue(run, gated);
      if (gated.facts.plan === null) planless = true;
      return { target, executionId: execution.id };
    }),
  );
  const { db, events, waitMs } = service.options;
  if (planless && request.sessionId) await service.countPreplanRead(request.sessionId);
  return Promise.all(
    started.map(async (item): Promise<FanOutItem> => {
      if (!("executionId" in item)) return item;
      const row = await waitForResult(db, events, item.executionId, waitMs);
      if (!row)
        return {
          target: item.target,
          ok: false,
          code: "vanished",
          reason: "the execution vanished",
          nextStep: "retry",
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
