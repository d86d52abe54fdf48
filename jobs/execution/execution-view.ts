import { describeStoredGrants } from "../../policy/jail-grant.ts";
import { redact } from "../../policy/redact.ts";
import { type Execution, isTerminalExecutionStatus } from "../../store/executions.ts";
import type { ExecutionStatus, RunnableRisk } from "../../store/statuses.ts";

/**
 * What a model (and the operator) sees of an execution. Output was redacted before it was stored;
 * the command and the status reason are redacted here (the stored command is what the worker runs).
 */
export interface ExecutionView {
  execution_id: string;
  status: ExecutionStatus;
  finished: boolean;
  target: string;
  command: string;
  risk: RunnableRisk;
  exit_code: number | null;
  stdout: string | null;
  stderr: string | null;
  output_truncated: boolean;
  /** The stream was mostly binary: its text is a printable preview. */
  stdout_binary: boolean;
  stderr_binary: boolean;
  output_bytes: number | null;
  duration_ms: number | null;
  reason: string | null;
  /** It ran inside the read-only jail; null: it has not run (or ended before the jail reported). */
  jailed: boolean | null;
  /** Why it did not run jailed, or what the jail refused or hid. */
  jail_note: string | null;
  /** Read-only runs: what the jail opened to it, in words (its proof's grants); [] fully contained. */
  jail_grants: string[];
  /** The engine that jailed it. */
  jail_engine: string | null;
  /** What the jail hid from it that it seems to have needed ("/dev/vda", "the network" …). */
  jail_hidden: string[];
  step_seq: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export function executionView(row: Execution): ExecutionView {
  return {
    execution_id: row.id,
    status: row.status,
    finished: isTerminalExecutionStatus(row.status),
    target: row.target,
    command: redact(row.command),
    risk: row.risk,
    exit_code: row.exit_code,
    stdout: row.stdout,
    stderr: row.stderr,
    output_truncated: row.output_truncated,
    stdout_binary: row.stdout_binary,
    stderr_binary: row.stderr_binary,
    output_bytes: row.output_bytes === null ? null : Number(row.output_bytes),
    duration_ms: row.duration_ms,
    reason: row.status_reason === null ? null : redact(row.status_reason),
    jailed: row.jailed,
    jail_note: row.jail_note === null ? null : redact(row.jail_note),
    jail_grants: describeStoredGrants(row.jail_grants),
    jail_engine: row.jail_engine,
    jail_hidden: (Array.isArray(row.jail_hidden) ? row.jail_hidden : []).map((item) => String(item.what)),
    step_seq: row.step_seq,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/**
 * For a read-only run that ran: "jailed" (with what it was granted), or "not jailed: why" (with what
 * the jail refused or hid, if it did).
 */
export function jailLine(
  view: Pick<ExecutionView, "risk" | "jailed" | "jail_note"> & Partial<Pick<ExecutionView, "jail_grants">>,
): string | null {
  if (view.risk !== "read_only" || view.jailed === null) return null;
  const note = view.jail_note ? `: ${view.jail_note}` : "";
  const grants = view.jail_grants ?? [];
  const granted = view.jailed && grants.length > 0 ? ` (granted: ${grants.join(", ")})` : "";
  return view.jailed ? `jailed${granted}${note}` : `not jailed${note}`;
}

/** The next step a model should take after seeing this status. */
export function nextStepFor(view: ExecutionView): string {
  switch (view.status) {
    case "completed":
      return "read the output; continue with the next step";
    case "failed":
      return "read stderr and the exit code, find out why before retrying (the same command is refused after 3 failures)";
    case "timed_out":
      return "the command was killed at its timeout: inspect the target (ps, strace -p, lsof, logs) to see why it hung instead of retrying";
    case "interrupted":
      return "the worker stopped while it ran and it was not re-run: check the target's state before doing anything else";
    case "queued":
    case "running":
      return `still ${view.status}: do other work or end your turn, then call get_execution_status("${view.execution_id}")`;
    case "pending_approval":
      return "waiting for the operator: end your turn; you are resumed when they decide";
    default:
      return `the execution is ${view.status}; it will not run`;
  }
}
