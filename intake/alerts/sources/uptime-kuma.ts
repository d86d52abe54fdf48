import { z } from "zod";
import type { ParsedDelivery } from "../notification.ts";
import { optionalTime } from "../notification.ts";

// Uptime Kuma's webhook notification (content type application/json): `{heartbeat, monitor, msg}`.
// heartbeat.status is 0 down, 1 up, 2 pending, 3 maintenance. The "Test" button sends both as
// null. Only the monitor fields below are kept: Kuma's monitor JSON can carry the monitor's own
// credentials (basic auth, headers, request body), which must never be stored or shown.

const heartbeat = z.object({
  monitorID: z.number().int().optional(),
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  time: z.string().default(""),
  msg: z.string().default(""),
  ping: z.number().nullable().optional(),
  important: z.union([z.boolean(), z.number()]).optional(),
  duration: z.number().nullable().optional(),
});

const monitor = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  type: z.string().optional(),
  url: z.string().nullable().optional(),
  hostname: z.string().nullable().optional(),
  port: z.number().int().nullable().optional(),
});

export const uptimeKumaPayload = z.object({
  heartbeat: heartbeat.nullable(),
  monitor: monitor.nullable(),
  msg: z.string(),
});
export type UptimeKumaPayload = z.infer<typeof uptimeKumaPayload>;

export function fromUptimeKuma(payload: UptimeKumaPayload): ParsedDelivery {
  const { heartbeat: beat, monitor: mon } = payload;
  if (!beat || !mon) return { kind: "test", stored: payload };
  if (beat.status === 2 || beat.status === 3) {
    return {
      kind: "ignored",
      reason: beat.status === 2 ? "monitor pending" : "monitor in maintenance",
      stored: payload,
    };
  }
  const status = beat.status === 0 ? "firing" : "resolved";
  const labels: Record<string, string> = {
    alertname: "MonitorDown",
    monitor: mon.name,
    monitor_id: String(mon.id),
  };
  if (mon.type) labels.type = mon.type;
  const host = mon.hostname || hostOf(mon.url);
  if (host) labels.instance = mon.port ? `${host}:${mon.port}` : host;
  const annotations: Record<string, string> = { summary: beat.msg || payload.msg };
  if (mon.url) annotations.url = mon.url;
  const at = optionalTime(beat.time ? `${beat.time.replace(" ", "T")}Z` : null);
  const fingerprint = `monitor-${mon.id}`;
  return {
    kind: "notification",
    notification: {
      groupKey: fingerprint,
      status,
      title: `${mon.name} is ${status === "firing" ? "down" : "up"}${beat.msg ? `: ${beat.msg}` : ""}`,
      severity: null,
      labels,
      annotations,
      alerts: [
        {
          fingerprint,
          status,
          labels,
          annotations,
          startsAt: status === "firing" ? at : null,
          endsAt: status === "resolved" ? at : null,
          generatorUrl: null,
        },
      ],
      truncated: 0,
      link: mon.url || null,
    },
    stored: payload,
  };
}

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
