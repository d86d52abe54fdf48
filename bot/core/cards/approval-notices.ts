import { approvalWithCommand } from "../../../store/approvals.ts";
import type { Db } from "../../../store/db.ts";
import { type Card, clock } from "../card.ts";
import { inTime } from "../console/ago.ts";
import { riskBadge } from "../risk-badge.ts";

/** Half the time to live passed: what still waits, until when, and how to decide. Only while pending. */
export async function buildReminderCard(db: Db, approvalId: string, now: Date): Promise<Card | undefined> {
  const a = await approvalWithCommand(db, approvalId);
  if (a?.status !== "pending") return undefined;
  return {
    kind: "notice",
    title: "⏰ Still waiting for an approval",
    lines: [
      `\`${a.command ?? "?"}\` on \`${a.target ?? "?"}\` — ${riskBadge(a.risk)}`,
      `asked at ${clock(a.created_at)}; it expires unanswered at ${clock(a.expires_at)} (${inTime(a.expires_at, now)}), and then nothing runs.`,
    ],
    hint: a.required_phrase
      ? `Reply in this thread with exactly \`${a.required_phrase}\` to approve, or react ❌ on the approval card to deny.`
      : "React ✅ or ❌ on the approval card above, or reply “approve” / “deny” in this thread.",
    ...(a.required_phrase ? { phrase: a.required_phrase } : {}),
  };
}

/**
 * Said in the thread when nobody decided in time: it expired unanswered (nobody denied it). A card,
 * so the renderer can call the approvers: they learn that what they were asked did not run.
 */
export async function buildExpiredNotice(db: Db, approvalId: string): Promise<Card | undefined> {
  const a = await approvalWithCommand(db, approvalId);
  if (a?.status !== "expired") return undefined;
  return {
    kind: "notice",
    title: "⌛ Expired unanswered",
    lines: [
      `The approval for \`${a.command ?? "?"}\` on \`${a.target ?? "?"}\` expired unanswered at ${clock(a.expires_at)}: nobody decided, so it did not run.`,
    ],
    hint: "Reply in this thread to have the agent ask again.",
  };
}
