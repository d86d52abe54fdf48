import { createHash } from "node:crypto";
import { z } from "zod";
import type { ParsedDelivery } from "../notification.ts";

// The generic form, for anything that can POST JSON (a cron job, a script, a NAS):
// `{title, text?, labels?, severity?, status?, group?}`. `group` names the alert group (one thread);
// without it the group is derived from title and labels, so the same alert repeats into the same
// thread and `status: "resolved"` with the same title and labels resolves it.

export const genericPayload = z.strictObject({
  title: z.string().min(1).max(300),
  text: z.string().max(8000).default(""),
  labels: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "label names are letters, digits and _"), z.string())
    .default({}),
  severity: z.string().min(1).max(40).optional(),
  status: z.enum(["firing", "resolved"]).default("firing"),
  group: z.string().min(1).max(200).optional(),
});
export type GenericPayload = z.infer<typeof genericPayload>;

export function fromGeneric(payload: GenericPayload): ParsedDelivery {
  const labels = { ...payload.labels };
  if (payload.severity) labels.severity = payload.severity;
  const groupKey = payload.group ?? `generic:${digest(payload.title, payload.labels)}`;
  const annotations: Record<string, string> = payload.text
    ? { summary: payload.title, description: payload.text }
    : { summary: payload.title };
  return {
    kind: "notification",
    notification: {
      groupKey,
      status: payload.status,
      title: payload.title,
      severity: payload.severity ?? null,
      labels,
      annotations,
      alerts: [
        {
          fingerprint: groupKey,
          status: payload.status,
          labels,
          annotations,
          startsAt: null,
          endsAt: null,
          generatorUrl: null,
        },
      ],
      truncated: 0,
      link: null,
    },
    stored: payload,
  };
}

function digest(title: string, labels: Record<string, string>): string {
  const sorted = Object.keys(labels)
    .sort()
    .map((k) => [k, labels[k]]);
  return createHash("sha256")
    .update(JSON.stringify([title, sorted]))
    .digest("hex")
    .slice(0, 16);
}
