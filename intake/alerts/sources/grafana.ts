import { z } from "zod";
import type { ParsedDelivery } from "../notification.ts";
import { alertmanagerAlert, MAX_ALERTS, toNotification } from "./alertmanager.ts";

// Grafana Alerting's webhook contact point (payload version "1"): Alertmanager's group shape plus
// orgId, state, title and message, and per alert the silence/dashboard/panel links and values.

const labels = z.record(z.string(), z.string());

export const grafanaPayload = z.object({
  version: z.literal("1"),
  groupKey: z.string().min(1),
  truncatedAlerts: z.number().int().min(0).default(0),
  orgId: z.number().int(),
  status: z.enum(["firing", "resolved"]),
  state: z.string().default(""),
  title: z.string().default(""),
  message: z.string().default(""),
  receiver: z.string(),
  groupLabels: labels.default({}),
  commonLabels: labels.default({}),
  commonAnnotations: labels.default({}),
  externalURL: z.string().default(""),
  alerts: z
    .array(
      alertmanagerAlert.extend({
        silenceURL: z.string().default(""),
        dashboardURL: z.string().default(""),
        panelURL: z.string().default(""),
        values: z.record(z.string(), z.number().nullable()).nullable().optional(),
        valueString: z.string().optional(),
      }),
    )
    .max(MAX_ALERTS)
    .default([]),
});
export type GrafanaPayload = z.infer<typeof grafanaPayload>;

export function fromGrafana(payload: GrafanaPayload): ParsedDelivery {
  // Grafana's "Test" button sends a made-up alert labelled alertname=TestAlert.
  if (payload.alerts.length === 0 || payload.alerts.every((a) => a.labels.alertname === "TestAlert")) {
    return { kind: "test", stored: payload };
  }
  return { kind: "notification", notification: toNotification(payload), stored: payload };
}
