import { JAIL_UNJAILED_ATTRIBUTE } from "../../../policy/jail.ts";
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
  const jailAllowance = isJailAllowance(change.patch);
  const card: Card = jailAllowance
    ? {
        kind: "approval",
        title: `🔓 \`${change.entity_slug}\` cannot run the read-only jail`,
        lines: [`why: ${change.reason}`],
      }
    : {
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
    card.hint = jailAllowance
      ? `React ✅ to let read-only commands run unjailed on ${change.entity_slug} (a standing decision you can revoke), or ❌ to keep approving each one.`
      : "React ✅ to apply it or ❌ to refuse. Commands already approved for the old routing will not run after a change.";
    card.actions = [
      { id: "approve", label: "Approve", style: "primary" },
      { id: "deny", label: "Deny", style: "danger" },
    ];
    card.reactions = ["✅", "❌"];
  } else {
    card.title = jailAllowance
      ? `🔓 Read-only commands unjailed on \`${change.entity_slug}\``
      : "🧭 Routing change";
    card.status = decisionLine(
      approval.status,
      approval.decided_by,
      decisionNote ?? approval.channel,
      approval.decided_at,
    );
  }
  return card;
}

/** The operator's choice offered when a target cannot jail (store/jail-detection.ts offerUnjailedReadOnly). */
function isJailAllowance(patch: unknown): boolean {
  const keys = patch !== null && typeof patch === "object" ? Object.keys(patch) : [];
  return keys.length === 1 && keys[0] === JAIL_UNJAILED_ATTRIBUTE;
}
