import { describeStoredGrants, jailGrantsSchema } from "../../../policy/jail-grant.ts";
import { readExecutionSnapshot, snapshotSubject } from "../../../store/execution-snapshot.ts";
import type { Card } from "../card.ts";
import { clock, tailOf } from "../card.ts";

/** "✏️ changes requested by @bob at 14:02 UTC: restart only the bridge" (issue #32) */
export function changesLine(request: { by: string; reason: string; at: string }): string {
  const reason = request.reason.length > 500 ? `${request.reason.slice(0, 499)}…` : request.reason;
  return `✏️ changes requested by ${request.by} at ${clock(new Date(request.at))}: ${reason.replace(/\s+/g, " ")}`;
}

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
  /** What the jail hid from it (executions.jail_hidden, policy/jail-hidden.ts), shown beside "jailed". */
  jail_hidden?: unknown;
}

/**
 * Where a read-only run ran, in a person's words: "🔒 jailed (granted: …)", with what the jail hid
 * or showed of its own when it did; "🔓 unjailed: needs X (proven by spec Y)" when its proof sent it
 * outside the jail by name; "not jailed" otherwise (approved, the jail off, the operator's allowance).
 */
export function jailLineOf(execution: ExecutionView): string | null {
  if (execution.risk !== "read_only") return null;
  const grants = jailGrantsSchema.safeParse(execution.jail_grants ?? []);
  const list = grants.success ? grants.data : [];
  if (execution.jailed === true) {
    const granted = describeStoredGrants(list.filter((grant) => grant.resource !== "unjailed"));
    const hidden = (Array.isArray(execution.jail_hidden) ? execution.jail_hidden : [])
      .map((item: unknown) =>
        typeof item === "object" && item !== null && "what" in item ? String(item.what) : null,
      )
      .filter((what): what is string => what !== null);
    return [
      granted.length > 0 ? `🔒 jailed (granted: ${granted.join(", ")})` : "🔒 jailed",
      ...(hidden.length > 0 ? [`⚠️ the jail hid or showed its own: ${hidden.join(", ")}`] : []),
    ].join(" · ");
  }
  if (execution.jailed === false) {
    const unjailed = describeStoredGrants(list.filter((grant) => grant.resource === "unjailed"));
    return unjailed.length > 0 ? `🔓 ${unjailed.join("; ")}` : "not jailed";
  }
  return null;
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
  const jail = jailLineOf(execution);
  if (jail !== null) line += ` · ${jail}`;
  const text = [execution.stdout ?? "", execution.stderr ?? ""].filter((s) => s.trim()).join("\n");
  if (!text.trim()) return { line };
  const { tail, omittedLines } = tailOf(text);
  return { line, output: { label: "output", tail, omittedLines } };
}
