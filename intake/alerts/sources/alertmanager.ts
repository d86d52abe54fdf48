import { z } from "zod";
import { type AlertNotification, optionalTime, type ParsedDelivery, severityOf } from "../notification.ts";

// Prometheus Alertmanager's webhook_config payload, version 4 (the only version it sends).
// Fields as Alertmanager documents them; unknown fields are dropped, a missing documented one is
// a 422 that names it.

const labels = z.record(z.string(), z.string());
/** More alerts than this in one notification is not a group anyone reads: set max_alerts lower. */
export const MAX_ALERTS = 1000;

export const alertmanagerAlert = z.object({
  status: z.enum(["firing", "resolved"]),
  labels,
  annotations: labels.default({}),
  startsAt: z.string(),
  endsAt: z.string().default(""),
  generatorURL: z.string().default(""),
  fingerprint: z.string().min(1),
});

export const alertmanagerPayload = z.object({
  version: z.literal("4"),
  groupKey: z.string().min(1),
  truncatedAlerts: z.number().int().min(0).default(0),
  status: z.enum(["firing", "resolved"]),
  receiver: z.string(),
  groupLabels: labels.default({}),
  commonLabels: labels.default({}),
  commonAnnotations: labels.default({}),
  externalURL: z.string().default(""),
  alerts: z.array(alertmanagerAlert).min(1).max(MAX_ALERTS),
});
export type AlertmanagerPayload = z.infer<typeof alertmanagerPayload>;

export function fromAlertmanager(payload: AlertmanagerPayload): ParsedDelivery {
  return { kind: "notification", notification: toNotification(payload), stored: payload };
}

/** Shared with Grafana, whose contact point sends the same group shape. */
export function toNotification(
  payload: Omit<AlertmanagerPayload, "version"> & { title?: string },
): AlertNotification {
  const alerts = payload.alerts.map((a) => ({
    fingerprint: a.fingerprint,
    status: a.status,
    labels: a.labels,
    annotations: a.annotations,
    startsAt: optionalTime(a.startsAt),
    endsAt: optionalTime(a.endsAt),
    generatorUrl: a.generatorURL || null,
  }));
  const labels = { ...payload.commonLabels };
  const annotations = payload.commonAnnotations;
  const name = labels.alertname ?? payload.groupLabels.alertname ?? alerts[0]?.labels.alertname ?? "alert";
  const summary = annotations.summary ?? (alerts.length === 1 ? alerts[0]!.annotations.summary : undefined);
  const title = summary
    ? `${name}: ${summary}`
    : alerts.length > 1
      ? `${name} (${alerts.length} alerts)`
      : name;
  return {
    groupKey: payload.groupKey,
    status: alerts.some((a) => a.status === "firing") ? "firing" : "resolved",
    title,
    severity: severityOf(labels, alerts),
    labels,
    annotations,
    alerts,
    truncated: payload.truncatedAlerts,
    link: payload.externalURL || null,
  };
}
