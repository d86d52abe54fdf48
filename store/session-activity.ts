import type { Executor } from "./audit.ts";

/**
 * Agent progress (a task tool call) counts as activity for the idle sweep but does not clear its
 * nudge: only the operator (store/messages.ts) or a finished execution does, so a nudged session that
 * only chats still closes.
 */
export async function recordActivity(db: Executor, sessionId: string, now = new Date()): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ last_activity_at: now, updated_at: now })
    .where("id", "=", sessionId)
    .execute();
}
