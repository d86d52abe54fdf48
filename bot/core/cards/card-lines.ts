import { describeStoredGrants } from "../../../policy/jail-grant.ts";
import { readExecutionSnapshot, snapshotSubject } from "../../../store/execution-snapshot.ts";
import type { Card } from "../card.ts";
import { clock, tailOf } from "../card.ts";

/** "✅ approved by @alice via ✅ at 14:02 UTC" */
export function decisionLine(status: string, by: string | null, via: string | null, at: Date | null): string {
  const icon = status === "approved" ? "✅" : status === "denied" ? "❌" : "•";
  const who = by ? ` by ${by}` : "";
  const how = via ? ` via ${via}` : "";
  const when = at ? ` at ${clock(new Date(at))}` : "";
  return `${icon} ${status}${who}${how}${when}`;
}

export interface ExecutionView {
  status: string;
  exit_code: number | null;
  duration_ms: number | null;
  stdout: string | null;
  stderr: string | null;
  output_truncated: boolean;
  status_reason: string | null;
  /** Read-only runs: inside the read-only jail or not (omitted where the card does not load it). */
  risk?: string;
  jailed?: boolean | null;
  /** The grants it ran with (executions.jail_grants), shown beside "jailed". */
  jail_grants?: unknown;
}

/**
 * "📸 snapshot taken: `oikos-1a2b3c4d` of `lxc:gitea`" (a guest) or "… of `tank/data` on `host:nas`"
 * (ZFS datasets), or "no snapshot: <why>"; null when a snapshot does not apply to this execution
 * (read-only, neither a Proxmox guest nor a host's ZFS dataset).
 */
export function snapshotLine(value: unknown): string | null {
  const snapshot = readExecutionSnapshot(value);
  if (snapshot === null) return null;
  if (snapshot.state === "none") {
    if (snapshot.waivedBy)
      return `no snapshot: ${snapshot.reason} — ${snapshot.waivedBy} let it run without one`;
    if (snapshot.asked)
      return `no snapshot: ${snapshot.reason} — waiting for an operator to decide whether it runs without one`;
    return `no snapshot: ${snapshot.reason}`;
  }
  const of =
    snapshot.tool === "zfs"
      ? `\`${snapshotSubject(snapshot)}\` on \`${snapshot.host}\``
      : `\`${snapshotSubject(snapshot)}\``;
  if (snapshot.removedAt) return `snapshot \`${snapshot.name}\` of ${of} removed by retention`;
  if (snapshot.rolledBackAt) {
    return `⏪ rolled back to snapshot \`${snapshot.name}\`${snapshot.rolledBackBy ? ` by ${snapshot.rolledBackBy}` : ""}`;
  }
  return `📸 snapshot taken: \`${snapshot.name}\` of ${of}`;
}

/** One line for where an execution stands, and its output tail once it finished. */
export function executionProgress(execution: ExecutionView): { line: string; output?: Card["output"] } {
  const took = execution.duration_ms !== null ? ` in ${(execution.duration_ms / 1000).toFixed(1)} s` : "";
  let line: string;
  switch (execution.status) {
    case "queued":
    case "approved":
      line = "⏳ queued";
      break;
    case "running":
      line = "⏳ running…";
      break;
    case "succeeded":
    case "completed":
      line = `✅ finished, exit ${execution.exit_code ?? 0}${took}`;
      break;
    default:
      line = `❌ ${execution.status}${execution.exit_code !== null ? `, exit ${execution.exit_code}` : ""}${took}${execution.status_reason ? ` — ${execution.status_reason}` : ""}`;
  }
  if (execution.risk === "read_only" && execution.jailed === true) {
    const grants = describeStoredGrants(execution.jail_grants);
    line += grants.length > 0 ? ` · 🔒 jailed (granted: ${grants.join(", ")})` : " · 🔒 jailed";
  }
  if (execution.risk === "read_only" && execution.jailed === false) line += " · not jailed";
  const text = [execution.stdout ?? "", execution.stderr ?? ""].filter((s) => s.trim()).join("\n");
  if (!text.trim()) return { line };
  const { tail, omittedLines } = tailOf(text);
  return { line, output: { label: "output", tail, omittedLines } };
}
