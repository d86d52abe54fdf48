import type { PlanPreview } from "./types.ts";

/**
 * The preview gate at approval (issue #15): an operator approves the change the card showed, not
 * the command string. When they approve, the preview the card showed is checked against the
 * target as it is now; a change they did not see never runs on their approval.
 *
 * Two steps, both pure: `previewRecheckAt` says whether the shown preview must be computed again
 * (its age past `maxAgeMs`; a preview with no rule never — rules are data, a second look finds
 * none either), then `decideAtApproval` compares what was shown with the recomputed one.
 */

/** What the card showed; `null` when no preview was recorded (its computation never finished). */
export type ShownPreview = PlanPreview | null;

export type RecheckNeed =
  | { kind: "not_needed"; why: "no_rule" | "fresh" }
  | { kind: "recompute"; why: "stale" | "not_recorded" | "failed_before" };

/**
 * Whether the shown preview is computed again before the approval may go through. `maxAgeMs` 0
 * means every approval looks again (the default: a file can change a second after it was read).
 * A `failed` preview is always looked at again: the operator may now be shown the effect.
 */
export function previewRecheckAt(shown: ShownPreview, now: Date, maxAgeMs: number): RecheckNeed {
  if (shown === null) return { kind: "recompute", why: "not_recorded" };
  if (shown.status === "unavailable") return { kind: "not_needed", why: "no_rule" };
  if (shown.status === "failed") return { kind: "recompute", why: "failed_before" };
  const age = now.getTime() - Date.parse(shown.computedAt);
  // A computed time in the future (clock skew between processes) counts as stale, never as fresh.
  if (maxAgeMs > 0 && age >= 0 && age <= maxAgeMs) return { kind: "not_needed", why: "fresh" };
  return { kind: "recompute", why: "stale" };
}

/** Why the operator is asked again: each names what they are shown now. */
export type AskAgainReason =
  /** The effect on the target differs from the one shown (fingerprints differ). */
  | "changed"
  /** The effect was shown but cannot be computed now: what it would do is unknown. */
  | "recheck_failed"
  /** A preview is available now where the card had none (recorded none, or it had failed). */
  | "now_available"
  /** The rule that previews this command is a different one (rule tables changed between). */
  | "different_rule";

export type ApprovalPreviewDecision =
  | { kind: "proceed"; why: "unchanged" | "no_rule" | "fresh" | "still_unavailable" }
  | {
      kind: "ask_again";
      reason: AskAgainReason;
      /** The preview the new card shows. */
      preview: PlanPreview;
      /** In the operator's words: what happened and what to do next. */
      message: string;
      /** The next correct action, for the agent that reads the thread. */
      nextStep: string;
    };

const NEXT_STEP =
  "nothing ran: wait for the operator to decide the new approval card (it shows the preview as it is now); do not run the command again";

/**
 * The decision once the preview was recomputed (or not needed). Race semantics: the operator's
 * approval goes through only if what they saw still holds, i.e.
 *  - shown available, fresh available, same fingerprint and rule → proceed;
 *  - shown available, fresh different / failed / unavailable → ask again (never run on a change
 *    nobody saw, nor on one that can no longer be confirmed);
 *  - shown failed or not recorded, fresh failed → proceed: the operator approved knowing there was
 *    no preview, and a target that cannot be previewed must not make the command unapprovable;
 *  - shown failed or not recorded, fresh available → ask again: they can see the effect now;
 *  - shown unavailable (no rule) → proceed, whatever `fresh` is (not recomputed).
 */
export function decideAtApproval(
  shown: ShownPreview,
  need: RecheckNeed,
  fresh: PlanPreview | null,
): ApprovalPreviewDecision {
  if (need.kind === "not_needed")
    return { kind: "proceed", why: need.why === "no_rule" ? "no_rule" : "fresh" };
  if (fresh === null) throw new Error("a preview that needed recomputing was not recomputed");
  if (shown !== null && shown.status === "available") {
    if (fresh.status === "available") {
      if (fresh.ruleId !== shown.ruleId) return askAgain("different_rule", fresh);
      if (fresh.fingerprint === shown.fingerprint) return { kind: "proceed", why: "unchanged" };
      return askAgain("changed", fresh);
    }
    return askAgain("recheck_failed", fresh);
  }
  if (fresh.status === "available") return askAgain("now_available", fresh);
  return { kind: "proceed", why: "still_unavailable" };
}

function askAgain(reason: AskAgainReason, preview: PlanPreview): ApprovalPreviewDecision {
  return {
    kind: "ask_again",
    reason,
    preview,
    message: askAgainMessage(reason, preview),
    nextStep: NEXT_STEP,
  };
}

function askAgainMessage(reason: AskAgainReason, preview: PlanPreview): string {
  const head = "Not run: ";
  const tail = " Nothing ran. Look at the new card and decide again.";
  switch (reason) {
    case "changed":
      return `${head}the preview changed since the card showed it (the target changed meanwhile).${tail}`;
    case "different_rule":
      return `${head}the command is now previewed by a different rule than the card showed.${tail}`;
    case "recheck_failed":
      return `${head}the preview could not be computed again to confirm it still holds (${reasonOf(preview)}).${tail}`;
    case "now_available":
      return `${head}the card showed no preview, and one is available now.${tail}`;
  }
}

function reasonOf(preview: PlanPreview): string {
  return preview.status === "available" ? "available" : preview.reason;
}
