import { claimDueReminders } from "../../store/approval-reminders.ts";
import { approvalReminder } from "../../store/domain-events.ts";
import { type SweepContext, type SweepItem, sweepItem } from "./registry.ts";

/**
 * A pending approval past half its time to live gets one reminder (the bot posts it in the
 * thread, mentioning who can decide), so it does not sit unseen until it expires.
 */
export async function sweepApprovalReminders(ctx: SweepContext): Promise<SweepItem[]> {
  const items: SweepItem[] = [];
  for (const approval of await claimDueReminders(ctx.db, ctx.now)) {
    const item = await sweepItem(`approval ${approval.id} (session ${approval.session_id})`, async () => {
      await ctx.events.publish(approvalReminder({ sessionId: approval.session_id, approvalId: approval.id }));
      return "reminded";
    });
    if (item) items.push(item);
  }
  return items;
}
