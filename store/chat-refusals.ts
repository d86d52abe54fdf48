import type { Executor } from "./audit.ts";

/**
 * True when a stranger should get the polite refusal now: at most once per `intervalMs` per user,
 * remembered in the database so a restart does not make the bot chatty. One conditional write.
 */
export async function claimRefusal(
  db: Executor,
  who: { platform: string; user: string },
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - intervalMs);
  const updated = await db
    .updateTable("chat_refusals")
    .set({ refused_at: now })
    .where("platform", "=", who.platform)
    .where("user_id", "=", who.user)
    .where("refused_at", "<", cutoff)
    .returning("user_id")
    .executeTakeFirst();
  if (updated) return true;
  const inserted = await db
    .insertInto("chat_refusals")
    .values({ platform: who.platform, user_id: who.user, refused_at: now })
    .onConflict((oc) => oc.columns(["platform", "user_id"]).doNothing())
    .returning("user_id")
    .executeTakeFirst();
  return inserted !== undefined;
}
