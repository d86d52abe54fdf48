import {
  type AlertGroup,
  alertsOfGroup,
  labelsInCommon,
  labelsThatDiffer,
} from "../../../store/alert-groups.ts";
import type { Db } from "../../../store/db.ts";
import { type Card, clock } from "../card.ts";
import { mentionsOf } from "../mentions.ts";

const SHOWN_LABELS = 8;
const SHOWN_ALERTS = 6;
/** Labels shown on one alert's line: those that tell it apart from the group's other alerts. */
const SHOWN_DIFFERING = 3;

/**
 * The root message of an alert thread: what fires, where it comes from, which entities it names
 * (or that none did), who is called, and what the agent does about it. Rebuilt from the store and
 * edited as the group changes (resolved, flapping).
 */
export async function buildAlertCard(db: Db, group: AlertGroup, waitingBehind: number): Promise<Card> {
  const alerts = await alertsOfGroup(db, group.id);
  const firing = alerts.filter((a) => a.status === "firing");
  const icon = group.status === "resolved" ? "✅" : severityIcon(group.severity);
  const lines: string[] = [];
  // one alert: its labels; a group: what its alerts share (what differs is on each alert's line)
  const shared = alerts.length > 1 ? labelsInCommon(alerts) : (alerts[0]?.labels ?? {});
  const labels = Object.entries({ ...shared, ...group.labels });
  const shown = labels.slice(0, SHOWN_LABELS).map(([k, v]) => `${k}=${v}`);
  lines.push(
    `source: ${group.source} (${group.source_kind})${group.severity ? ` · severity: ${group.severity}` : ""}`,
  );
  if (shown.length > 0)
    lines.push(
      `labels: \`${shown.join(", ")}\`${labels.length > SHOWN_LABELS ? ` (+${labels.length - SHOWN_LABELS})` : ""}`,
    );
  const summary = group.annotations.summary ?? group.annotations.description;
  if (summary && !group.title.includes(summary)) lines.push(summary);
  if (alerts.length > 1) {
    lines.push(`${alerts.length} alerts, ${firing.length} firing:`);
    const differ = labelsThatDiffer(alerts);
    alerts.slice(0, SHOWN_ALERTS).forEach((alert, at) => {
      const own = Object.entries(differ[at] ?? {}).slice(0, SHOWN_DIFFERING);
      const which =
        own.length > 0
          ? `\`${own.map(([k, v]) => `${k}=${v}`).join(", ")}\``
          : (alert.labels.instance ?? alert.labels.alertname ?? alert.fingerprint);
      lines.push(`  ${alert.status === "firing" ? "🔥" : "✅"} ${which}`);
    });
    if (alerts.length > SHOWN_ALERTS) lines.push(`  … and ${alerts.length - SHOWN_ALERTS} more`);
  }
  lines.push(
    group.entities.length > 0
      ? `entities: ${group.entities.map((slug) => `\`${slug}\``).join(", ")}`
      : `entities: none in the knowledge graph match ${group.unmatched.length > 0 ? `\`${group.unmatched.join(", ")}\`` : "these labels"}`,
  );
  const card: Card = {
    kind: "notice",
    title: `${icon} ${group.title}`,
    badge: group.status === "resolved" ? "resolved" : "firing",
    lines,
  };
  // Who the route calls, as the platform's own mentions (a firing group only: a resolution notifies nobody).
  const mentions = mentionsOf(group.platform ?? "", group.mentions);
  if (group.status === "firing" && mentions.users.length + mentions.groups.length > 0)
    card.mentions = mentions;
  if (group.status === "resolved" && group.resolved_at)
    card.status = `✅ resolved at ${clock(group.resolved_at)}`;
  else if (group.flap_count > 0)
    card.status = `⚠️ flapping: fired again ${group.flap_count} time(s) soon after resolving`;
  card.hint = investigationHint(group, waitingBehind);
  return card;
}

function investigationHint(group: AlertGroup, waitingBehind: number): string {
  switch (group.investigation) {
    case "waiting":
      return waitingBehind > 0
        ? `The agent investigates it read-only once one of the ${waitingBehind} running alert investigations has reported.`
        : "The agent is starting a read-only investigation; findings and a plan follow in this thread.";
    case "investigating":
      return "The agent is investigating read-only; findings and a plan follow in this thread.";
    case "reported":
      return "Findings and the plan are in this thread; nothing changes before an operator approves.";
    case "skipped":
      return group.investigate
        ? "Resolved before its investigation started; nothing was run. Reply in this thread to have the agent look anyway."
        : "Not investigated automatically (its route says investigate: false). Reply in this thread to have the agent look.";
    case "none":
      return "Reply in this thread to have the agent look into it.";
  }
}

function severityIcon(severity: string | null): string {
  const s = (severity ?? "").toLowerCase();
  if (s === "critical" || s === "error" || s === "high" || s === "page") return "🔴";
  if (s === "warning" || s === "medium") return "🟠";
  if (s === "info" || s === "low") return "🔵";
  return "🔥";
}

/** The line a plan card shows when the alert that started its task resolved while it waits. */
export function resolvedWhilePending(group: Pick<AlertGroup, "status" | "resolved_at">): string | null {
  if (group.status !== "resolved" || !group.resolved_at) return null;
  return `⚠️ The alert that started this task resolved at ${clock(group.resolved_at)} while this plan waited: check it is still needed before you approve.`;
}
