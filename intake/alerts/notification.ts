/**
 * What every alert source is turned into: one notification about one alert group. The receivers
 * (intake/alerts/sources/*) validate a source's documented payload and produce this; everything
 * after them (grouping, routing, matching, the thread) sees only this shape.
 */
export type AlertStatus = "firing" | "resolved";

export interface NormalisedAlert {
  fingerprint: string;
  status: AlertStatus;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Date | null;
  endsAt: Date | null;
  generatorUrl: string | null;
}

export interface AlertNotification {
  /** Identity of the group within its source: one thread per group key. */
  groupKey: string;
  /** firing while any alert of the group fires. */
  status: AlertStatus;
  title: string;
  severity: string | null;
  /** Labels and annotations every alert of the group shares. */
  labels: Record<string, string>;
  annotations: Record<string, string>;
  alerts: NormalisedAlert[];
  /** Alerts the sender left out of this notification (Alertmanager max_alerts). */
  truncated: number;
  /** The sender's own link back (Alertmanager externalURL, a monitor URL). */
  link: string | null;
}

/**
 * A parsed request: a notification, a sender's connectivity test (Uptime Kuma's "Test" button,
 * Grafana's test notification), or a state the source reports that is no alert (a monitor in
 * maintenance).
 */
export type ParsedDelivery =
  | { kind: "notification"; notification: AlertNotification; stored: unknown }
  | { kind: "test"; stored: unknown }
  | { kind: "ignored"; reason: string; stored: unknown };

/** Go's zero time ("0001-01-01T00:00:00Z") and empty strings mean "not set". */
export function optionalTime(value: string | undefined | null): Date | null {
  if (!value || value.startsWith("0001-01-01")) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A group's severity: the `severity` label when its alerts agree, else the worst one present. */
export function severityOf(
  labels: Record<string, string>,
  alerts: readonly NormalisedAlert[],
): string | null {
  if (labels.severity) return labels.severity;
  const order = ["critical", "error", "high", "warning", "medium", "low", "info"];
  const present = alerts.map((a) => a.labels.severity).filter((s): s is string => Boolean(s));
  if (present.length === 0) return null;
  return [...present].sort((a, b) => rank(a) - rank(b))[0]!;

  function rank(severity: string): number {
    const i = order.indexOf(severity.toLowerCase());
    return i === -1 ? order.length : i;
  }
}
