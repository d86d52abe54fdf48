import type { Approval } from "../../../store/approvals.ts";
import type { Db } from "../../../store/db.ts";
import { routingChangeOfApproval } from "../../../store/routing-approval.ts";
import { describeRouting, type RoutingView } from "../../../store/routing-change.ts";
import type { Card } from "../card.ts";
import { decisionLine } from "./card-lines.ts";

/**
 * The approval card of a routing change the agent asked for (change_routing): which entity, where
 * its commands go now and where they would go, and why. Nothing changes until an operator approves.
 */
export async function buildRoutingCard(
  db: Db,
  approval: Approval,
  decisionNote: string | null,
): Promise<Card | undefined> {
  const change = await routingChangeOfApproval(db, approval.id);
  if (!change) return undefined;
  const card: Card = {
    kind: "approval",
    title: "🧭 Routing change needs an operator",
    lines: [
      `re-route \`${change.entity_slug}\`: where its commands run`,
      `was: \`${describeRouting(change.before as unknown as RoutingView)}\``,
      `new: \`${describeRouting(change.after as unknown as RoutingView)}\``,
      `why: ${change.reason}`,
    ],
  };
  if (approval.status === "pending") {
    card.badge = "waiting for an operator";
    card.hint =
      "React ✅ to apply it or ❌ to refuse. Commands already approved for the old routing will not run after a change.";
    card.actions = [
      { id: "approve", label: "Approve", style: "primary" },
      { id: "deny", label: "Deny", style: "danger" },
    ];
    card.reactions = ["✅", "❌"];
  } else {
    card.title = "🧭 Routing change";
    card.status = decisionLine(
      approval.status,
      approval.decided_by,
      decisionNote ?? approval.channel,
      approval.decided_at,
    );
  }
  return card;
}
