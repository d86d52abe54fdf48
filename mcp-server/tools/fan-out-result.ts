import type { ExecutionView } from "../../jobs/execution/execution-view.ts";
import type { FanOutItem } from "../../jobs/execution/fan-out.ts";
import type { Refusal } from "../../policy/refusals.ts";
import { gateRefused, ok, type ToolResult } from "../tool-result.ts";
import { compactExecution } from "./compact-execution.ts";

/**
 * Output characters a fan-out result spends on all targets together: each target gets an equal
 * share (at least MIN_TARGET_OUTPUT_CHARS), so 100 targets fit the model's tool-result budget
 * instead of the middle ones being cut away.
 */
export const FAN_OUT_OUTPUT_CHARS = 8_000;
const MIN_TARGET_OUTPUT_CHARS = 80;

/** How one target of a fan-out ended, for the summary line. */
type TargetEnd = "completed" | "did_not_run" | "other" | "refused";

/**
 * run_many / inspect_path: per-target results led by a one-line summary (what ran, what did not
 * and why), and, when some targets did not run, the next step for them. Every target refused ends
 * the turn (fan_out_refused).
 */
export function fanOutResult(result: FanOutItem[] | Refusal): ToolResult {
  if (!Array.isArray(result)) return gateRefused(result);
  const refusals = result.flatMap(({ target, outcome }) =>
    outcome.kind === "refused" ? [{ target, ...outcome }] : [],
  );
  if (refusals.length > 0 && refusals.length === result.length) return allRefused(refusals);
  const outputChars = Math.max(MIN_TARGET_OUTPUT_CHARS, Math.floor(FAN_OUT_OUTPUT_CHARS / result.length));
  const ends = result.map((item) => ({ target: item.target, end: endOf(item) }));
  const unreached = ends.filter((e) => e.end === "did_not_run").map((e) => e.target);
  const next =
    unreached.length > 0 || refusals.length > 0
      ? "Report what the targets that ran show, and name each target that did not run or was refused with its" +
        " reason (in results). Do not run this command on those targets again in this task: a target the" +
        " command never reached fails the same way until the operator fixes it; for a refused one follow its" +
        " next_step."
      : undefined;
  return ok({
    kind: "fan_out",
    summary: summaryLine(ends, refusals),
    ...(next === undefined ? {} : { next_step: next }),
    results: result.map(({ target, outcome }) => {
      if (outcome.kind === "refused") return { target, ...outcome };
      const compact = compactExecution(outcome.execution, outputChars);
      if (neverRan(outcome.execution)) {
        compact.next_step =
          `the command never started on ${target} (reason says why): do not re-run it in this task; ` +
          "report the target and the reason to the operator";
      }
      return { target, kind: outcome.kind, ...compact };
    }),
  });
}

/**
 * Failed without an exit code or a duration: the command never ran on the target (the connection
 * or the transport failed first), unlike a command that ran and failed.
 */
function neverRan(view: ExecutionView): boolean {
  return view.status === "failed" && view.exit_code === null && view.duration_ms === null;
}

function endOf(item: FanOutItem): TargetEnd {
  const { outcome } = item;
  if (outcome.kind === "refused") return "refused";
  if (outcome.execution.status === "completed") return "completed";
  return neverRan(outcome.execution) ? "did_not_run" : "other";
}

function summaryLine(
  ends: { target: string; end: TargetEnd }[],
  refusals: (Refusal & { target: string })[],
): string {
  const count = (end: TargetEnd) => ends.filter((e) => e.end === end);
  const parts = [`${count("completed").length} completed`];
  const other = count("other");
  if (other.length > 0) parts.push(`${other.length} ran and did not complete (see each status)`);
  const unreached = count("did_not_run");
  if (unreached.length > 0)
    parts.push(`${unreached.length} never started (${unreached.map((e) => e.target).join(", ")})`);
  if (refusals.length > 0)
    parts.push(`${refusals.length} refused (${refusals.map((r) => `${r.target}: ${r.code}`).join(", ")})`);
  return `${ends.length} targets: ${parts.join("; ")}`;
}

/**
 * Every target refused: nothing ran, and the same call would be refused the same way, so the turn
 * ends with why, per target (issue 22: a fleet audit with dead hosts used to spin to the round cap).
 */
function allRefused(refusals: (Refusal & { target: string })[]): ToolResult {
  const lines = refusals.map((r) => `${r.target}: ${r.code} — ${r.reason}`);
  return ok({
    kind: "fan_out_refused",
    results: refusals,
    message: `Every target was refused, nothing ran:\n${lines.join("\n")}`,
    next_step:
      "END YOUR TURN NOW: tell the operator which targets were refused and why (each line above) and what" +
      " you found on the others so far; do not call run_many or inspect_path again for these targets until" +
      " the operator answers.",
  });
}
