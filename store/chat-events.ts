import type { Executor } from "./audit.ts";

// chat_events: one row per platform event the chat core took in, for durable dedupe.

/** Records the event (once) and says whether it was already processed. */
export async function recordChatEvent(
  db: Executor,
  event: { platform: string; eventId: string; room: string | null },
): Promise<{ processed: boolean }> {
  await db
    .insertInto("chat_events")
    .values({ platform: event.platform, event_id: event.eventId, room: event.room })
    .onConflict((oc) => oc.columns(["platform", "event_id"]).doNothing())
    .execute();
  return { processed: await chatEventProcessed(db, event.platform, event.eventId) };
}

export async function markChatEventProcessed(
  db: Executor,
  platform: string,
  eventId: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable("chat_events")
    .set({ processed_at: now })
    .where("platform", "=", platform)
    .where("event_id", "=", eventId)
    .execute();
}

export async function chatEventProcessed(db: Executor, platform: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom("chat_events")
    .select("processed_at")
    .where("platform", "=", platform)
    .where("event_id", "=", eventId)
    .executeTakeFirst();
  return row?.processed_at != null;
}
