import { LRUCache } from "lru-cache";
import type { Logger } from "../../base/logger.ts";
import type { EventBus } from "../../jobs/events/port.ts";
import type { DomainEvent } from "../../jobs/events/types.ts";
import { type CardKind, type CardRefs, planSubject } from "../../store/chat-cards.ts";
import type { Db } from "../../store/db.ts";
import { executionCardLinks } from "../../store/executions.ts";
import { claimKv, deleteKv } from "../../store/kv.ts";
import { pendingCardSubjects } from "../../store/pending-card-subjects.ts";
import { currentPlan } from "../../store/plans.ts";
import {
  getSession,
  type SessionAddress,
  type SessionChatPlace,
  sessionChatPlace,
} from "../../store/sessions.ts";
import type { Outcome } from "../../store/statuses.ts";
import type { Card, CardMentions } from "./card.ts";
import { buildApprovalCard } from "./cards/approval-card.ts";
import { buildExpiredNotice, buildReminderCard } from "./cards/approval-notices.ts";
import { buildPlanCard } from "./cards/plan-card.ts";
import { buildQuestionCard } from "./cards/question-card.ts";
import { buildSummaryCard } from "./cards/summary-card.ts";
import type { ChatAdapter, MessageRef } from "./chat-adapter.ts";
import type { ScheduleThreads } from "./schedule-threads.ts";

interface Place {
  adapter: ChatAdapter;
  room: string;
  thread: string;
  sessionId: string;
  /** The session's scheduled run as read with the place (null: not a scheduled run). */
  scheduleRun: SessionChatPlace["scheduleRun"];
}

function claimKey(platform: string, kind: CardKind, subjectId: string): string {
  return `chat-card:${platform}:${kind}:${subjectId}`;
}

/**
 * Turns domain events into chat: one card per plan, approval and question (posted once, then
 * edited as its state changes), agent text and the completion summary as replies in the
 * session's thread. Every card is rebuilt from the database, so what a card shows is what the
 * store says. Work for one session runs in order, so an edit never overtakes its post.
 */
export class CardRenderer {
  readonly #db: Db;
  readonly #adapters: ReadonlyMap<string, ChatAdapter>;
  readonly #cards: CardRefs;
  readonly #logger: Logger;
  readonly #scheduled: ScheduleThreads | undefined;
  readonly #mentions:
    | ((platform: string, room: string, self: string) => CardMentions | undefined)
    | undefined;
  readonly #chains = new Map<string, Promise<void>>();
  /**
   * The chat place of sessions that are not scheduled runs. It cannot change: a session's platform and
   * room are never updated, and its thread is re-bound only for a scheduled run whose thread opens
   * late (ScheduleThreads), whose run row is written in the session's own transaction
   * (store/schedules.ts startScheduledRun) — a session read without one never gets one. Saves the read
   * on every event of a session (typing, execution progress, agent text) but the first.
   */
  readonly #fixedPlaces = new LRUCache<string, SessionAddress>({ max: 10_000 });
  /** What each card last showed: an event that changes nothing visible edits nothing. */
  readonly #lastRendered = new Map<string, string>();
  /** Per session: cards whose post failed (claim released), posted again on the session's next event. */
  readonly #unposted = new Map<string, Map<string, () => Promise<void>>>();

  constructor(deps: {
    db: Db;
    adapters: ReadonlyMap<string, ChatAdapter>;
    cards: CardRefs;
    logger: Logger;
    /** Scheduled runs whose thread is posted only when there is something to show. */
    scheduled?: ScheduleThreads;
    /** Who a card waiting for a decision mentions in a room (RoomAccess.mentions). */
    mentions?: (platform: string, room: string, self: string) => CardMentions | undefined;
  }) {
    this.#db = deps.db;
    this.#adapters = deps.adapters;
    this.#cards = deps.cards;
    this.#logger = deps.logger;
    this.#scheduled = deps.scheduled;
    this.#mentions = deps.mentions;
  }

  /** A card that waits for an operator's decision calls the people who can give it. */
  #withMentions(adapter: ChatAdapter, room: string, card: Card): Card {
    // A summary's reactions (feedback, rollback) are offers, not a decision anyone owes: no call.
    const waiting =
      card.kind === "question"
        ? card.status === undefined
        : card.kind !== "summary" && (card.actions?.length ?? 0) + (card.reactions?.length ?? 0) > 0;
    const mentions = waiting ? this.#mentions?.(adapter.platform, room, adapter.selfId) : undefined;
    return mentions ? { ...card, mentions } : card;
  }

  /** A notice about a decision still owed (a reminder, an expiry): posted calling who can decide. */
  async #postCalling(place: Place, card: Card): Promise<void> {
    const mentions = this.#mentions?.(place.adapter.platform, place.room, place.adapter.selfId);
    await place.adapter.post(place.room, place.thread, { card: mentions ? { ...card, mentions } : card });
  }

  subscribe(events: EventBus): () => void {
    return events.subscribe("*", (event) => this.handle(event));
  }

  /** Renders one event; resolves when the chat reflects it. Failures are logged, never thrown. */
  handle(event: DomainEvent): Promise<void> {
    const sessionId = event.sessionId;
    if (!sessionId) return Promise.resolve();
    return this.#inOrder(sessionId, event.type, async () => {
      await this.#retryUnposted(sessionId);
      await this.#render(sessionId, event);
    });
  }

  /**
   * At start-up: posts the cards of pending plans, approvals and questions that have none on
   * their session's platform (a post that failed, or a crash between claiming and posting), so
   * consent always has a card to answer. Call when an adapter connects (`only`: its platform).
   */
  async renderUnposted(only?: readonly string[]): Promise<void> {
    const platforms = [...this.#adapters.keys()].filter((p) => !only || only.includes(p));
    if (platforms.length === 0) return;
    const subjects = await pendingCardSubjects(this.#db, platforms);
    const work: Promise<void>[] = [];
    const recover = (sessionId: string, platform: string, kind: CardKind, subjectId: string) =>
      work.push(
        this.#inOrder(sessionId, "recover", async () => {
          if (await this.#cards.bySubject(platform, kind, subjectId)) return;
          await deleteKv(this.#db, claimKey(platform, kind, subjectId));
          await this.#postSubject(sessionId, kind, subjectId);
        }),
      );
    for (const s of subjects) recover(s.sessionId, s.platform, s.kind, s.subjectId);
    await Promise.all(work);
  }

  #inOrder(sessionId: string, what: string, work: () => Promise<void>): Promise<void> {
    const previous = this.#chains.get(sessionId) ?? Promise.resolve();
    const next = previous.then(() =>
      work().catch((error: unknown) => {
        this.#logger.error({ err: error, event: what, sessionId }, "chat rendering failed");
      }),
    );
    this.#chains.set(sessionId, next);
    void next.then(() => {
      if (this.#chains.get(sessionId) === next) this.#chains.delete(sessionId);
    });
    return next;
  }

  /** Where the session's chat goes: read with its scheduled run, kept for a session that is no scheduled run. */
  async #place(sessionId: string): Promise<Place | undefined> {
    const fixed = this.#fixedPlaces.get(sessionId);
    const session = fixed ? { ...fixed, scheduleRun: null } : await sessionChatPlace(this.#db, sessionId);
    if (!session) return undefined;
    if (!fixed && session.scheduleRun === null)
      this.#fixedPlaces.set(sessionId, {
        platform: session.platform,
        room: session.room,
        thread: session.thread,
      });
    const adapter = this.#adapters.get(session.platform);
    if (!adapter) return undefined;
    return {
      adapter,
      room: session.room,
      thread: session.thread,
      sessionId,
      scheduleRun: session.scheduleRun,
    };
  }

  /** Posts (or, if it has one, refreshes) the card of one subject. */
  async #postSubject(sessionId: string, kind: CardKind, subjectId: string): Promise<void> {
    const place = await this.#place(sessionId);
    if (!place || this.#scheduled?.isDeferred(place.scheduleRun)) return;
    if (kind === "plan") {
      const generation = Number(subjectId.slice(subjectId.lastIndexOf(":") + 1));
      await this.#postOnce(place, kind, subjectId, () => buildPlanCard(this.#db, sessionId, generation));
    } else if (kind === "approval") {
      await this.#postOnce(place, kind, subjectId, () => buildApprovalCard(this.#db, subjectId));
    } else if (kind === "question") {
      await this.#postOnce(place, kind, subjectId, () => buildQuestionCard(this.#db, subjectId));
    } else if (kind === "summary") {
      const session = await getSession(this.#db, sessionId);
      if (session?.outcome) await this.#postSummary(place, sessionId, session.outcome);
    }
  }

  /**
   * The summary of a closed task, once per platform (claimed like every card): from its
   * task.completed event, or at start-up and on a platform's reconnect when no card records it.
   */
  async #postSummary(place: Place, sessionId: string, outcome: Outcome): Promise<void> {
    // complete_task has committed: the plan card is redrawn from the database, so every step
    // (the write-back one too) shows its stored status. A redraw that changes nothing edits nothing.
    const plan = await currentPlan(this.#db, sessionId);
    if (plan) await this.refreshPlan(place.adapter, sessionId, plan.plan.generation);
    // Registered as a card, so a ⏪ on the summary finds the task it sums up (rollback-gesture.ts).
    await this.#postOnce(place, "summary", sessionId, () => buildSummaryCard(this.#db, sessionId, outcome));
  }

  async #retryUnposted(sessionId: string): Promise<void> {
    const retries = this.#unposted.get(sessionId);
    if (!retries) return;
    this.#unposted.delete(sessionId);
    for (const retry of retries.values()) {
      // A failure is logged and registered again by #postOnce; the event at hand still renders.
      await retry().catch((error: unknown) =>
        this.#logger.error({ err: error, sessionId }, "posting a card failed again"),
      );
    }
  }

  async #render(sessionId: string, event: DomainEvent): Promise<void> {
    let place = await this.#place(sessionId);
    if (!place) return;
    if (this.#scheduled) {
      const verdict = await this.#scheduled.route(sessionId, place, event, place.scheduleRun);
      if (verdict.kind === "skip") return;
      place = { ...place, ...verdict.place };
    }
    const { adapter } = place;
    const session = { room: place.room, thread: place.thread };
    switch (event.type) {
      case "plan.proposed":
        if (event.generation > 1) await this.refreshPlan(adapter, sessionId, event.generation - 1);
        await this.#postOnce(place, "plan", planSubject(sessionId, event.generation), () =>
          buildPlanCard(this.#db, sessionId, event.generation),
        );
        return;
      case "plan.decided":
        await this.refreshPlan(adapter, sessionId, event.generation);
        return;
      case "approval.requested":
        await this.#postOnce(place, "approval", event.approvalId, () =>
          buildApprovalCard(this.#db, event.approvalId),
        );
        return;
      case "approval.decided": {
        await this.refreshApproval(adapter, event.approvalId);
        const expired =
          event.decision === "expired" ? await buildExpiredNotice(this.#db, event.approvalId) : undefined;
        if (expired) await this.#postCalling(place, expired);
        return;
      }
      case "approval.reminder": {
        const card = await buildReminderCard(this.#db, event.approvalId, new Date());
        if (card) await this.#postCalling(place, card);
        return;
      }
      case "execution.queued":
      case "execution.started":
      case "execution.finished":
        await this.#refreshExecution(adapter, event.executionId);
        return;
      case "question.raised":
        await this.#postOnce(place, "question", event.questionId, () =>
          buildQuestionCard(this.#db, event.questionId),
        );
        return;
      case "question.answered":
        await this.#refresh(adapter, "question", event.questionId, () =>
          buildQuestionCard(this.#db, event.questionId),
        );
        return;
      case "agent.message":
        if (event.text.trim()) await adapter.post(session.room, session.thread, { text: event.text });
        return;
      case "agent.typing":
        await adapter.typing?.(session.room, event.active);
        return;
      case "task.completed":
        await this.#postSummary(place, sessionId, event.outcome);
        return;
      default:
        return;
    }
  }

  async refreshPlan(adapter: ChatAdapter, sessionId: string, generation: number): Promise<void> {
    const subject = planSubject(sessionId, generation);
    await this.#refresh(adapter, "plan", subject, (note) =>
      buildPlanCard(this.#db, sessionId, generation, note),
    );
  }

  async refreshApproval(adapter: ChatAdapter, approvalId: string): Promise<void> {
    await this.#refresh(adapter, "approval", approvalId, (note) =>
      buildApprovalCard(this.#db, approvalId, note),
    );
  }

  async #refreshExecution(adapter: ChatAdapter, executionId: string): Promise<void> {
    const execution = await executionCardLinks(this.#db, executionId);
    if (!execution) return;
    // A rollback changes what the undone execution's cards say ("⏪ rolled back").
    if (execution.rollbackOf) await this.#refreshExecution(adapter, execution.rollbackOf);
    for (const approvalId of execution.approvalIds) await this.refreshApproval(adapter, approvalId);
    if (execution.sessionId && execution.planGeneration !== null) {
      await this.refreshPlan(adapter, execution.sessionId, execution.planGeneration);
    }
  }

  /** Posts the card unless this subject already has one (then edits it): never two cards for one thing. */
  async #postOnce(
    place: Place,
    kind: CardKind,
    subjectId: string,
    build: () => Promise<Card | undefined>,
  ): Promise<void> {
    const { adapter } = place;
    const key = claimKey(adapter.platform, kind, subjectId);
    if (!(await claimKv(this.#db, key, { at: new Date() }))) {
      await this.#refresh(adapter, kind, subjectId, () => build());
      return;
    }
    let ref: MessageRef;
    let card: Card | undefined;
    try {
      const built = await build();
      card = built && { ...this.#withMentions(adapter, place.room, built), postKey: key };
      if (!card) {
        await deleteKv(this.#db, key);
        return;
      }
      ref = await adapter.post(place.room, place.thread, { card });
    } catch (error) {
      // Nothing was posted: release the claim so the card can still be posted, or consent
      // would find no card to answer. Retried on this session's next event (and at start-up).
      await deleteKv(this.#db, key);
      const retries = this.#unposted.get(place.sessionId) ?? new Map<string, () => Promise<void>>();
      retries.set(key, () => this.#postOnce(place, kind, subjectId, build));
      this.#unposted.set(place.sessionId, retries);
      throw error;
    }
    // what a refresh builds has no postKey: compare like with like, or an unchanged card is edited
    const { postKey: _posted, ...shown } = card;
    this.#lastRendered.set(`${adapter.platform}\u0000${ref.messageId}`, JSON.stringify(shown));
    await this.#cards.save({ ref, kind, sessionId: place.sessionId, subjectId });
    if (!adapter.prefersButtons) for (const key of card.reactions ?? []) await adapter.react(ref, key);
  }

  async #refresh(
    adapter: ChatAdapter,
    kind: CardKind,
    subjectId: string,
    build: (decisionNote: string | null) => Promise<Card | undefined>,
  ): Promise<void> {
    const record = await this.#cards.bySubject(adapter.platform, kind, subjectId);
    if (!record) return;
    const built = await build(record.decisionNote);
    if (!built) return;
    const card = this.#withMentions(adapter, record.ref.room, built);
    const key = `${adapter.platform}\u0000${record.ref.messageId}`;
    const rendered = JSON.stringify(card);
    if (this.#lastRendered.get(key) === rendered) return;
    await adapter.edit(record.ref, { card });
    this.#lastRendered.set(key, rendered);
  }
}
