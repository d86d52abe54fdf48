import { groupKey, groupsFor, quorumFor } from "../../policy/quorum.ts";
import { sameTypedPhrase } from "../../policy/typed-phrase.ts";
import { getApproval, pendingExecutionApproval } from "../../store/approvals.ts";
import { recordAudit } from "../../store/audit.ts";
import { requestExecutionChanges, requestPlanChanges } from "../../store/change-requests.ts";
import { type CardRecord, CardRefs, splitPlanSubject } from "../../store/chat-cards.ts";
import {
  approvePlan,
  type ConsentResult,
  type ConsentVia,
  decideApproval,
  denyPlan,
} from "../../store/consent.ts";
import { planAwaitingApproval } from "../../store/plans.ts";
import { getSession, type Session } from "../../store/sessions.ts";
import type { ChatAdapter, MessageRef } from "./chat-adapter.ts";
import type { ChatCoreDeps } from "./core-deps.ts";
import { applyFollowUps } from "./follow-ups.ts";

export interface ConsentAct {
  decision: "approve" | "deny";
  user: string;
  via: ConsentVia;
  /** How it looks in the room: "✅", "the Approve button", "typed “go ahead”". */
  /** The platform event of the gesture (recorded with the message the agent sees). */
  eventId?: string;
  note: string;
  typedPhrase?: string;
  /** ♾️: approve and grant the same command a standing grant (issue #32); days null: the configured default. */
  grant?: { days: number | null };
}

/**
 * Applies an operator's decision to what a card shows. The card's state is re-read from the
 * database by store/consent (nothing held in memory); refusals (already decided, typed phrase
 * required, other session) come back as data and are told in the thread when useful.
 */
export class ConsentHandler {
  readonly #deps: ChatCoreDeps;

  constructor(deps: ChatCoreDeps) {
    this.#deps = deps;
  }

  async onCard(adapter: ChatAdapter, card: CardRecord, act: ConsentAct): Promise<ConsentResult | undefined> {
    if (!card.sessionId) return undefined;
    const sessionId = card.sessionId;
    let result: ConsentResult;
    if (card.kind === "plan") {
      // A standing grant covers one command: a plan card has none to grant.
      if (act.grant) return undefined;
      const [, generation] = splitPlanSubject(card.subjectId);
      // Approving the plan also approves the pending config change, and opens the assent window the
      // same command could then run in: when that change's preview changed, neither goes through.
      if (act.decision === "approve" && (await this.#previewGate(adapter, card.ref, sessionId, null, act)))
        return undefined;
      const input = {
        sessionId,
        generation,
        by: act.user,
        via: act.via,
        leavePendingApproval: await this.#pendingNeedsQuorum(card.ref.room, sessionId),
        ...(this.#deps.assentWindowMs !== undefined ? { assentWindowMs: this.#deps.assentWindowMs } : {}),
      };
      result =
        act.decision === "approve"
          ? await approvePlan(this.#deps.db, input)
          : await denyPlan(this.#deps.db, input);
    } else if (card.kind === "approval") {
      if (
        act.decision === "approve" &&
        (await this.#previewGate(adapter, card.ref, sessionId, card.subjectId, act))
      )
        return undefined;
      result = await decideApproval(this.#deps.db, {
        approvalId: card.subjectId,
        sessionId,
        decision: act.decision === "approve" ? "approved" : "denied",
        by: act.user,
        via: act.via,
        ...(act.typedPhrase !== undefined ? { typedPhrase: act.typedPhrase } : {}),
        ...(await this.#quorumOf(adapter, card.ref.room, card.subjectId, sessionId)),
        ...(act.grant && act.decision === "approve"
          ? {
              grant: {
                days: act.grant.days,
                ...(this.#deps.grantDays !== undefined ? { defaultDays: this.#deps.grantDays } : {}),
              },
            }
          : {}),
      });
    } else {
      return undefined;
    }
    await this.#finish(adapter, card.ref, sessionId, result, act);
    return result;
  }

  /**
   * What approvals.rules ask of this approval in this room (policy/quorum.ts), with the task's
   * requester. The members of the rules' approver groups are read from the platform now (the
   * adapter keeps them a short while); without `adapter` none are read (only whether a quorum applies).
   */
  async #quorumOf(adapter: ChatAdapter | null, room: string, approvalId: string, sessionId: string) {
    const rules = this.#deps.approvalRules ?? [];
    if (rules.length === 0) return {};
    const [approval, session] = await Promise.all([
      getApproval(this.#deps.db, approvalId),
      getSession(this.#deps.db, sessionId),
    ]);
    if (approval?.subject !== "execution" || !approval.target || !approval.risk) return {};
    const at = { room, target: approval.target, risk: approval.risk };
    const members = new Map<string, readonly string[]>();
    if (adapter?.approverGroupMembers)
      for (const group of groupsFor(rules, at))
        members.set(groupKey(group), (await adapter.approverGroupMembers(room, group)) ?? []);
    const quorum = quorumFor(rules, at, members);
    return { quorum: { quorum, requester: session?.created_by ?? null } };
  }

  /** The session's pending config change needs more than this plan approval (a quorum rule applies). */
  async #pendingNeedsQuorum(room: string, sessionId: string): Promise<boolean> {
    if (!this.#deps.approvalRules?.length) return false;
    const pending = await pendingExecutionApproval(this.#deps.db, sessionId);
    if (!pending) return false;
    const found = await this.#quorumOf(null, room, pending.id, sessionId);
    if (!("quorum" in found) || !found.quorum) return false;
    const q = found.quorum.quorum;
    return q.required > 1 || q.separateRequester || q.approvers !== null;
  }

  /**
   * The preview gate before an approval goes through (issue #15): true when the operator was asked
   * again (the preview changed; nothing ran, a new card shows the new preview). Only an approval
   * that would go through is checked: pending, unexpired, its typed phrase given where required.
   * `approvalId` null: the session's pending config change, which approving a plan approves too.
   */
  async #previewGate(
    adapter: ChatAdapter,
    ref: MessageRef,
    sessionId: string,
    approvalId: string | null,
    act: ConsentAct,
  ): Promise<boolean> {
    const gate = this.#deps.previewAtApproval;
    if (!gate) return false;
    const approval = approvalId
      ? await getApproval(this.#deps.db, approvalId)
      : await pendingExecutionApproval(this.#deps.db, sessionId);
    if (!approval || approval.session_id !== sessionId || approval.subject !== "execution") return false;
    if (approval.status !== "pending" || approval.expires_at.getTime() <= Date.now()) return false;
    if (approvalId === null && approval.risk !== "config_mutation") return false;
    if (approval.required_phrase && !sameTypedPhrase(act.typedPhrase, approval.required_phrase)) return false;
    const outcome = await gate(approval.id, { by: act.user, via: act.via });
    if (outcome.kind === "proceed") return false;
    const { db, queue, events, logger } = this.#deps;
    if (outcome.result.ok) {
      const planToo =
        approvalId === null
          ? " The plan was not approved either: approve it again once you decided the new card."
          : "";
      await adapter.post(ref.room, ref.thread, { text: `${outcome.message}${planToo}` });
      const applied = await applyFollowUps(outcome.result.followUps, { queue, events });
      for (const failure of applied.failed) {
        logger.error(
          { err: failure.error, followUp: failure.followUp.kind, sessionId },
          "preview follow-up failed",
        );
      }
      return true;
    }
    // Decided meanwhile (another operator, the sweep): decideApproval below says so as usual.
    await recordAudit(
      db,
      { by: act.user, sessionId },
      {
        action: "consent.refused",
        subject: ref.messageId,
        details: { code: outcome.result.code, via: act.via },
      },
    );
    return false;
  }

  /** A phrase typed in a session's thread: decides the pending execution approval, else the proposed plan. */
  async onPhrase(adapter: ChatAdapter, session: Session, act: ConsentAct): Promise<boolean> {
    const { db } = this.#deps;
    // At most one pending execution approval per session (a unique index).
    const approval = await pendingExecutionApproval(db, session.id);
    if (approval) {
      const card = await this.#cardFor(adapter, "approval", approval.id);
      if (card) {
        await this.onCard(adapter, card, act);
        return true;
      }
    }
    if (act.grant) return false;
    const plan = await planAwaitingApproval(db, session.id);
    if (plan) {
      const card = await this.#cardFor(adapter, "plan", `${session.id}:${plan.generation}`);
      if (card) {
        await this.onCard(adapter, card, act);
        return true;
      }
    }
    return false;
  }

  /**
   * "changes: …" typed in a session's thread (issue #32): sends the pending execution approval back,
   * else the plan waiting for approval, with the operator's reason. False when neither waits.
   */
  async onChangeRequest(
    adapter: ChatAdapter,
    session: Session,
    act: { user: string; reason: string; eventId: string },
  ): Promise<boolean> {
    const { db } = this.#deps;
    const note = `changes requested by ${act.user}`;
    const consent: ConsentAct = {
      decision: "deny",
      user: act.user,
      via: "phrase",
      note,
      eventId: act.eventId,
    };
    const approval = await pendingExecutionApproval(db, session.id);
    const approvalCard = approval ? await this.#cardFor(adapter, "approval", approval.id) : undefined;
    if (approval && approvalCard) {
      const result = await requestExecutionChanges(db, {
        approvalId: approval.id,
        sessionId: session.id,
        by: act.user,
        via: "phrase",
        reason: act.reason,
      });
      await this.#finish(adapter, approvalCard.ref, session.id, result, consent);
      return result.ok;
    }
    const plan = await planAwaitingApproval(db, session.id);
    const planCard = plan
      ? await this.#cardFor(adapter, "plan", `${session.id}:${plan.generation}`)
      : undefined;
    if (plan && planCard) {
      const result = await requestPlanChanges(db, {
        sessionId: session.id,
        generation: plan.generation,
        by: act.user,
        via: "phrase",
        reason: act.reason,
      });
      await this.#finish(adapter, planCard.ref, session.id, result, consent);
      return result.ok;
    }
    return false;
  }

  /** Consent that does not count (a stranger, the bot itself, a card of another session): audited, ignored. */
  async ignore(
    card: CardRecord | undefined,
    user: string,
    reason: string,
    detail: Record<string, unknown>,
  ): Promise<void> {
    await recordAudit(
      this.#deps.db,
      { by: user, sessionId: card?.sessionId ?? null },
      {
        action: "consent.ignored",
        subject: card ? `${card.kind}:${card.subjectId}` : null,
        details: { reason, ...detail },
      },
    );
  }

  async #cardFor(
    adapter: ChatAdapter,
    kind: "plan" | "approval",
    subjectId: string,
  ): Promise<CardRecord | undefined> {
    return new CardRefs(this.#deps.db).bySubject(adapter.platform, kind, subjectId);
  }

  async #finish(
    adapter: ChatAdapter,
    ref: MessageRef,
    sessionId: string,
    result: ConsentResult,
    act: ConsentAct,
  ): Promise<void> {
    const { db, queue, events, logger } = this.#deps;
    if (!result.ok) {
      if (
        result.code === "typed_confirmation_required" ||
        result.code === "expired" ||
        result.code === "not_grantable" ||
        result.code === "not_an_approver" ||
        result.code === "already_voted"
      ) {
        await adapter.post(ref.room, ref.thread, { text: result.message });
      }
      await recordAudit(
        db,
        { by: act.user, sessionId },
        {
          action: "consent.refused",
          subject: ref.messageId,
          details: { code: result.code, via: act.via },
        },
      );
      return;
    }
    await new CardRefs(db).noteDecision(ref, act.note);
    if (act.via !== "phrase") {
      // A tap is the operator's answer as much as typed words are: the agent sees it in the
      // history (as it sees "go ahead"), which is also what wakes its next turn.
      const what = result.changes[0]?.what ?? "decision recorded";
      const verb =
        act.decision === "deny" ? "Denied" : act.grant ? "Approved with a standing grant" : "Approved";
      await this.#deps.recordMessage({
        sessionId,
        text: `${verb} (${act.note}): ${what}.`,
        author: act.user,
        eventId: act.eventId ?? ref.messageId,
      });
    }
    const outcome = await applyFollowUps(result.followUps, { queue, events });
    for (const failure of outcome.failed) {
      logger.error(
        { err: failure.error, followUp: failure.followUp.kind, sessionId },
        "consent follow-up failed",
      );
    }
  }
}
