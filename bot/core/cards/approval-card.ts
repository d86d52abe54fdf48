import { quorumLine } from "../../../policy/quorum.ts";
import { cannotTellLine, isUnreadableKind } from "../../../policy/unreadable.ts";
import { quorumStanding } from "../../../store/approval-votes.ts";
import { approvalWithCommand, getApproval } from "../../../store/approvals.ts";
import type { Db } from "../../../store/db.ts";
import { readExecutionSnapshot, snapshotSubject } from "../../../store/execution-snapshot.ts";
import { getExecution } from "../../../store/executions.ts";
import { PREVIEW_CHANNEL, previewAskedAgainBefore, shownPreviewOfApproval } from "../../../store/previews.ts";
import { type Card, clock } from "../card.ts";
import { riskBadge } from "../risk-badge.ts";
import { changesLine, decisionLine, executionProgress, snapshotLine } from "./card-lines.ts";
import { grantLineOf } from "./grant-lines.ts";
import { cardPreviewOf, outcomeLines, previewMessage } from "./preview-section.ts";
import { buildRoutingCard } from "./routing-card.ts";

/**
 * One card per gated execution: command, target, risk, purpose. After the decision the same
 * card shows who decided and then the execution's progress and result (edited, never reposted).
 */
export async function buildApprovalCard(
  db: Db,
  approvalId: string,
  decisionNote: string | null = null,
): Promise<Card | undefined> {
  const approval = await getApproval(db, approvalId);
  if (!approval) return undefined;
  if (approval.subject === "routing") return buildRoutingCard(db, approval, decisionNote);
  const execution = approval.execution_id ? await getExecution(db, approval.execution_id) : undefined;
  const risk = approval.risk ?? execution?.risk ?? null;
  const target = approval.target ?? execution?.target ?? "?";
  const lines = [
    `\`${execution?.command ?? approval.command_key ?? "?"}\``,
    `on \`${target}\` — ${riskBadge(risk)}`,
  ];
  if (execution?.purpose) lines.push(`why: ${execution.purpose}`);
  // The proof could not read it (policy/unreadable.ts): said on the card in words, decided or not.
  if (approval.unreadable && isUnreadableKind(approval.unreadable))
    lines.push(cannotTellLine(approval.unreadable));
  const [shown, askedAgain] = await Promise.all([
    shownPreviewOfApproval(db, approval.id),
    approval.execution_id ? previewAskedAgainBefore(db, approval.execution_id, approval.id) : false,
  ]);
  if (askedAgain)
    lines.push(
      "↻ asked again: the preview changed after an earlier card showed it (that approval ran nothing)",
    );
  const card: Card = { kind: "approval", title: "🔐 Approval needed", lines };
  const grantLine = await grantLineOf(db, approval);
  // the snapshot before this (already approved) change failed: this card asks whether it runs without one
  const failedSnapshot = readExecutionSnapshot(execution?.snapshot);
  const waiver =
    failedSnapshot?.state === "none" && failedSnapshot.asked === approval.id ? failedSnapshot : null;
  if (waiver) {
    card.title = "📸 Snapshot failed — run without one?";
    lines.push(
      `📸 the snapshot before this change failed: ${waiver.reason}`,
      "Nothing ran. Approve to run it without a snapshot (no rollback will be offered); deny to leave it undone.",
    );
  }
  if (shown) card.preview = cardPreviewOf(shown.preview, approval.id);
  const standing = await quorumStanding(db, approval);
  if (approval.status === "pending" && standing)
    lines.push(quorumLine(standing.have, standing.need, standing.waitingFor));
  if (approval.status === "approved" && standing && standing.voters.length > 1)
    lines.push(
      `approved by ${standing.voters.join(" and ")} (${standing.voters.length} of ${standing.need})`,
    );
  if (approval.status === "pending") {
    card.badge = risk === "destructive" ? "typed confirmation required" : "waiting for an operator";
    if (risk === "destructive") {
      const phrase = approval.required_phrase ?? `confirm ${target}`;
      // A code span: Matrix shows <code>, Slack a code span, the terminal backticks (normaliseTypedPhrase drops them).
      card.hint = `This is destructive. To approve, reply in this thread with exactly: \`${phrase}\` (👍 or a button will not do). React ❌ to deny.`;
      card.phrase = phrase;
      card.actions = [{ id: "deny", label: "Deny", style: "danger" }];
      card.reactions = ["❌"];
    } else if (approval.grant_basis) {
      card.hint =
        "React ✅ to approve or ❌ to deny, or reply “approve” / “deny” in the thread; “changes: <what to do instead>” sends it back. " +
        "♾️ (or “allow always”) approves this and lets exactly this command run again on this target without asking, until the standing grant ends (`!approvals` lists and revokes grants).";
      card.actions = [
        { id: "approve", label: "Approve", style: "primary" },
        { id: "grant", label: "♾️ Always allow" },
        { id: "deny", label: "Deny", style: "danger" },
      ];
      card.reactions = ["✅", "♾️", "❌"];
    } else {
      card.hint =
        "React ✅ to approve or ❌ to deny, or reply “approve” / “deny” in the thread; “changes: <what to do instead>” sends it back.";
      card.actions = [
        { id: "approve", label: "Approve", style: "primary" },
        { id: "deny", label: "Deny", style: "danger" },
      ];
      card.reactions = ["✅", "❌"];
    }
  } else if (approval.changes_requested) {
    card.title = "🔐 Approval";
    card.status = changesLine(approval.changes_requested);
  } else if (approval.standing_grant_id) {
    card.title = "♾️ Ran under a standing grant";
    if (grantLine) card.status = grantLine;
  } else {
    card.title = "🔐 Approval";
    if (grantLine) lines.push(grantLine);
    card.status =
      approval.status === "expired"
        ? `⌛ expired unanswered at ${clock(approval.expires_at)}: nobody decided, nothing ran`
        : approval.status === "cancelled" && approval.channel === PREVIEW_CHANNEL
          ? `↻ approved by ${approval.decided_by ?? "?"}, but the preview had changed since this card showed it: nothing ran; asked again in a new card`
          : decisionLine(
              approval.status,
              approval.decided_by,
              decisionNote ?? approval.channel,
              approval.decided_at,
            );
  }
  if (execution && approval.status === "approved") {
    const progress = executionProgress(execution);
    card.lines.push(progress.line);
    const snapshot = snapshotLine(execution.snapshot);
    if (snapshot) card.lines.push(snapshot);
    const taken = readExecutionSnapshot(execution.snapshot);
    if (taken?.state === "taken" && !taken.rolledBackAt && !taken.removedAt && execution.finished_at) {
      card.hint = `React ⏪ to roll \`${snapshotSubject(taken)}\` back to this snapshot (it asks for a typed confirmation first).`;
    }
    if (progress.output) card.output = progress.output;
    card.lines.push(...outcomeLines(shown?.outcome ?? null));
  }
  return card;
}

/** Slack's "Show preview": the preview an approval card shows, as a message for its thread. */
export async function buildPreviewPost(db: Db, approvalId: string): Promise<string> {
  const approval = await approvalWithCommand(db, approvalId);
  const shown = await shownPreviewOfApproval(db, approvalId);
  if (!approval || !shown) return "This card has no preview.";
  return previewMessage(shown.preview, approval.command ?? "?", approval.target ?? "?");
}
