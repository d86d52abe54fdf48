import { sql } from "kysely";
import type { Executor } from "./audit.ts";
import type { Approval } from "./schema.ts";

/**
 * Pending approvals past half their time to live that were not reminded yet, each claimed once
 * (a kv row per approval), so two sweeps racing remind once.
 */
export async function claimDueReminders(db: Executor, now = new Date()): Promise<Approval[]> {
  const due = await db
    .selectFrom("approvals")
    .selectAll()
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .where(sql<Date>`created_at + (expires_at - created_at) / 2`, "<=", now)
    .orderBy("created_at")
    .limit(100)
    .execute();
  const claimed: Approval[] = [];
  for (const approval of due) {
    const row = await db
      .insertInto("kv")
      .values({ key: reminderKey(approval.id), value: JSON.stringify({ at: now }) })
      .onConflict((oc) => oc.column("key").doNothing())
      .returning("key")
      .executeTakeFirst();
    if (row) claimed.push(approval);
  }
  return claimed;
}

function reminderKey(approvalId: string): string {
  return `approval-reminder:${approvalId}`;
}
