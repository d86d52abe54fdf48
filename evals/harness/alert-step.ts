import { z } from "zod";
import { takeDelivery } from "../../intake/alerts/intake.ts";
import { parsePayload } from "../../intake/alerts/sources/index.ts";
import { ALERT_SOURCE_KINDS, alertsSchema } from "../../intake/config.ts";
import type { EvalSystem } from "./system.ts";

/**
 * The operator action `alert:` (issue 19): a monitoring system sends a webhook. The payload goes
 * through the source's schema and the alert intake exactly as `/alerts/<source>` takes it (the HTTP
 * receiver itself is covered by intake/alerts/receiver.contract.test.ts), routed to the eval room.
 * The thread the alert opens gets the action's label, so later actions can react and reply in it.
 */
export const alertAction = z
  .object({
    source: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
    kind: z.enum(ALERT_SOURCE_KINDS),
    payload: z.unknown(),
    thread: z.string().default("main"),
  })
  .strict();
export type AlertAction = z.infer<typeof alertAction>;

/** Sends the alert; resolves with the root event id of its thread once the bot has posted it. */
export async function sendAlert(
  system: EvalSystem,
  action: AlertAction,
  until: (what: string, check: () => Promise<boolean>) => Promise<void>,
): Promise<string> {
  const parsed = parsePayload(action.kind, action.payload);
  if (!parsed.ok)
    throw new Error(`alert payload is not a ${action.kind} payload: ${parsed.issues.join("; ")}`);
  const config = alertsSchema.parse({
    minIntervalMs: 0,
    sources: { [action.source]: { kind: action.kind, token: "eval-alert-token-0123456789" } },
    routes: [{ room: system.room, platform: "matrix" }],
  });
  const { db, queue, logger } = system.runtime;
  const result = await takeDelivery(
    { db, queue, logger, config },
    { name: action.source, kind: action.kind },
    parsed.delivery,
  );
  if (!result.groupId) throw new Error(`the alert opened no group: ${result.outcome} (${result.detail})`);
  let thread: string | null = null;
  await until(`the thread of alert ${result.groupId}`, async () => {
    const group = await db
      .selectFrom("alert_groups")
      .select("thread")
      .where("id", "=", result.groupId!)
      .executeTakeFirst();
    thread = group?.thread ?? null;
    return thread !== null;
  });
  return thread!;
}
