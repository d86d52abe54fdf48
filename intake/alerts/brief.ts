import { redact } from "../../policy/redact.ts";
import { labelsInCommon, labelsThatDiffer } from "../../store/alert-groups.ts";
import type { EntityMatch } from "./match-entities.ts";
import type { AlertNotification } from "./notification.ts";

const SHOWN_LABELS = 12;

/**
 * What the agent is told when an alert opens a thread: the alert as the source sent it, the
 * entities its labels matched (or that none did), and what to do: research read-only, then
 * findings and a plan. The gates hold without this text; it saves the model a wrong turn.
 * Redacted: alert annotations are free text from another system.
 */
export function alertBrief(
  source: { name: string; kind: string },
  notification: AlertNotification,
  match: EntityMatch,
): string {
  const firing = notification.alerts.filter((a) => a.status === "firing");
  const lines = [`Alert from ${source.name} (${source.kind}), ${notification.status}: ${notification.title}`];
  if (notification.severity) lines.push(`Severity: ${notification.severity}.`);
  const started = firing.map((a) => a.startsAt).filter((d): d is Date => d !== null);
  if (started.length > 0)
    lines.push(`Firing since ${new Date(Math.min(...started.map(Number))).toISOString()}.`);
  const { alerts } = notification;
  // one alert: its own labels; a group: only what every alert shares (what differs is listed per alert)
  const shared = alerts.length > 1 ? labelsInCommon(alerts) : alerts[0]?.labels;
  lines.push(`Labels: ${labelText(notification.labels, shared)}`);
  for (const [key, value] of Object.entries(notification.annotations)) lines.push(`${key}: ${value}`);
  if (alerts.length > 1) {
    const differ = labelsThatDiffer(alerts);
    lines.push(`${alerts.length} alerts in this group (${firing.length} firing), what differs between them:`);
    alerts.slice(0, 10).forEach((alert, at) => {
      const own = differ[at]!;
      const which = labelText(Object.keys(own).length > 0 ? own : alert.labels);
      const named = match.perAlert?.[at] ?? [];
      lines.push(
        `- ${alert.status}: ${which}${named.length > 0 ? ` → ${named.join(", ")}` : " → no entity"}${alert.annotations.summary ? ` — ${alert.annotations.summary}` : ""}`,
      );
    });
  }
  if (notification.truncated > 0)
    lines.push(`(${notification.truncated} more alerts were left out by the sender.)`);
  if (match.slugs.length > 0) {
    lines.push(`Entities these labels name: ${match.slugs.join(", ")}.`);
  } else {
    lines.push(
      `No entity in the knowledge graph matches these labels (${match.unmatched.join(", ") || "no host or service label"}). ` +
        "Say so in your findings; look the host up with search_knowledge / list_entities before you run anything.",
    );
  }
  lines.push(
    "",
    "Investigate this alert without changing anything: first what the knowledge graph knows about these entities " +
      "(runbooks, past incidents), then read-only commands on them to find the cause. Post your findings in a few " +
      "lines, then propose the fix with propose_plan and end your turn: nothing that changes anything runs before an " +
      "operator approves the plan. If it needs no fix, say why and complete the task.",
  );
  return redact(lines.join("\n"));
}

function labelText(common: Record<string, string>, first?: Record<string, string>): string {
  const merged = { ...(first ?? {}), ...common };
  const entries = Object.entries(merged);
  const shown = entries.slice(0, SHOWN_LABELS).map(([k, v]) => `${k}=${v}`);
  return entries.length > SHOWN_LABELS
    ? `${shown.join(", ")} (+${entries.length - SHOWN_LABELS} more)`
    : shown.join(", ");
}
