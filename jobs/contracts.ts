import { z } from "zod";

/**
 * Every queue and the payload its jobs carry. Payloads are checked at enqueue and again at
 * consume (a worker may run a different build than the producer). Add a queue by adding a key.
 */
export const queuePayloadSchemas = {
  execute: z.object({ executionId: z.string().min(1) }),
  "agent-turn": z.object({
    sessionId: z.string().min(1),
    reason: z.enum(["message", "answer", "consent", "nudge", "resume"]),
    messageId: z.string().min(1).optional(),
  }),
  continue: z.object({ sessionId: z.string().min(1), executionId: z.string().min(1) }),
  sweep: z.object({ kind: z.enum(["stale", "approvals", "reminders", "idle", "snapshots", "all"]) }),
  learn: z.object({}),
  /** intake/alerts → bot: post an alert group's thread (open) or an update into it. */
  "alert-thread": z.object({
    groupId: z.string().min(1),
    update: z.enum(["open", "repeat", "refire", "resolved", "digest"]),
    /** A repeat: the labels and annotations that changed since the thread last saw them (intake/alerts/what-changed.ts). */
    changed: z
      .array(
        z.object({
          field: z.enum(["label", "annotation"]),
          key: z.string(),
          was: z.string().nullable(),
          now: z.string().nullable(),
        }),
      )
      .max(100)
      .optional(),
  }),
  /** intake/alerts: start waiting alert investigations up to alerts.maxConcurrent. */
  "alert-dispatch": z.object({}),
  /** intake/schedules: one fire of a configured schedule (job id `repeat:schedule:<name>:<ms>`). */
  schedule: z.object({ name: z.string().min(1) }),
  /** jobs/proxmox: the periodic discovery through one node (proxmox.discoveryNodes). */
  "proxmox-discovery": z.object({ node: z.string().min(1) }),
} as const;

export type QueueName = keyof typeof queuePayloadSchemas;
export type QueuePayload<Q extends QueueName> = z.infer<(typeof queuePayloadSchemas)[Q]>;

export const queueNames = Object.keys(queuePayloadSchemas) as QueueName[];

export function isQueueName(value: string): value is QueueName {
  return Object.hasOwn(queuePayloadSchemas, value);
}
