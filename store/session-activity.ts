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

/**
 * A done/failed session that gets a new operator message reopens as a new task: status planning,
 * outcome cleared, and `requires_replan` set so no non-read-only run happens before a fresh set_goal +
 * propose_plan. Conditional: returns false when the session was not terminal.
 */
export async function reopenSession(db: Executor, sessionId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({
      status: "planning",
      outcome: null,
      closed_at: null,
      requires_replan: true,
      reopened_at: now,
      live_discovery: false,
      entity_writeback: false,
      nudged_at: null,
      last_activity_at: now,
      updated_at: now,
    })
    .where("id", "=", sessionId)
    .where("status", "in", ["done", "failed"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
