import { LRUCache } from "lru-cache";
import { isOikosError } from "../../base/errors.ts";
import { parseChangeRequest } from "../../policy/change-request.ts";
import { isGrantReaction, parseGrantPhrase } from "../../policy/standing-grant.ts";
import { sameTypedPhrase } from "../../policy/typed-phrase.ts";
import { pendingTypedPhrase } from "../../store/approvals.ts";
import { recordAudit } from "../../store/audit.ts";
import { type CardRecord, CardRefs } from "../../store/chat-cards.ts";
import { questionAnswered } from "../../store/domain-events.ts";
import { getQuestion, openQuestion } from "../../store/questions.ts";
import { createSession, findSessionByThread, type Session, touchSession } from "../../store/sessions.ts";
import type { AccessLevel } from "./access.ts";
import { shouldRefuse } from "./access.ts";
import { type CommandContext, type CommandReply, parseCommand } from "./bot-commands.ts";
import { reactionKind } from "./card.ts";
import { buildPreviewPost } from "./cards/approval-card.ts";
import type { AnswerVisibility, ChatAdapter, Inbound } from "./chat-adapter.ts";
import { ConsentHandler } from "./consent-handler.ts";
import { adoptPattern } from "./console/pattern-commands.ts";
import type { ChatCoreDeps } from "./core-deps.ts";
import { EventLedger } from "./event-ledger.ts";
import { executionToRollBack, isRollbackReaction } from "./rollback-gesture.ts";

const REFUSAL =
  "Hello! I only take instructions from this room's operators, so I will not act on this. " +
  "Ask an admin to add you to this room's operators (chat.rooms in oikos.yaml) or to OIKOS_OPERATORS if you should be one.";

/**
 * The platform-free heart of the bot: every inbound event from every adapter passes here once
 * (durable dedupe), is checked against who may do what, and becomes a command answer, a
 * consent decision, a question answer, or a message for the agent in the thread's session.
 */
export class ChatCore {
  readonly #deps: ChatCoreDeps;
  readonly #adapters: Map<string, ChatAdapter>;
  /** Causes of failed events already logged as errors (platform, room, error code). */
  readonly #failedRooms = new LRUCache<string, true>({ max: 1_000 });
  readonly #ledger: EventLedger;
  readonly #cards: CardRefs;
  readonly #consent: ConsentHandler;

  constructor(deps: ChatCoreDeps, adapters: Map<string, ChatAdapter>) {
    this.#deps = deps;
    this.#adapters = adapters;
    this.#ledger = new EventLedger(deps.db);
    this.#cards = new CardRefs(deps.db);
    this.#consent = new ConsentHandler(deps);
  }

  get cards(): CardRefs {
    return this.#cards;
  }

  /** The sink adapters deliver to. Never throws: one bad event must not stop the bot. */
  async handle(received: Inbound): Promise<void> {
    // What a chat client sends is text: NUL and other control characters never reach the store.
    const event = withoutControlCharacters(received);
    const adapter = this.#adapters.get(event.platform);
    if (!adapter) return;
    let begun = false;
    try {
      begun = await this.#ledger.begin(event.platform, event.eventId, event.room);
      if (!begun) return;
      await this.#dispatch(adapter, event);
      await this.#ledger.finish(event.platform, event.eventId);
    } catch (error) {
      if (begun) this.#ledger.abandon(event.platform, event.eventId);
      // A room that fails every answer the same way (Slack: the bot was removed from the channel)
      // is one error line per cause; the platform's own line already says what to do.
      const cause = `${event.platform}:${event.room}:${isOikosError(error) ? error.code : "other"}`;
      const repeated = isOikosError(error) && this.#failedRooms.has(cause);
      this.#failedRooms.set(cause, true);
      this.#deps.logger[repeated ? "debug" : "error"](
        { err: error, platform: event.platform, eventId: event.eventId, kind: event.kind, room: event.room },
        repeated ? "chat event failed again for the same cause" : "chat event failed",
      );
    }
  }

  async #dispatch(adapter: ChatAdapter, event: Inbound): Promise<void> {
    const level = await this.#deps.access.level(adapter, event.room, event.user);
    if (event.kind === "reaction" || event.kind === "button") {
      await this.#onConsentGesture(adapter, event, level);
      return;
    }
    if (event.user === adapter.selfId) return;
    const thread = event.kind === "message" ? (event.thread ?? event.messageId) : event.thread;
    if (level === "none") {
      // Where only mentions start tasks, a stranger's message that does not address the bot is
      // someone else's conversation: no refusal.
      if (event.kind === "message" && event.addressed === false) return;
      await this.#refuse(adapter, event, thread);
      return;
    }
    const command = parseCommand(event.text);
    if (event.kind === "command" || command) {
      const reply = await this.#runCommand(event, level);
      if (reply !== null) await this.#postReply(adapter, event, thread, reply);
      return;
    }
    await this.#onMessage(adapter, event, event.thread);
  }

  /** A command's answer: through the platform's own way back when it has one, else in the room. */
  async #answer(
    adapter: ChatAdapter,
    event: Inbound,
    thread: string | null,
    text: string,
    visibility: AnswerVisibility,
  ): Promise<void> {
    if (event.kind === "command" && adapter.answer) await adapter.answer(event, { text }, visibility);
    else await adapter.post(event.room, thread, { text });
  }

  async #runCommand(event: Inbound & { text: string }, level: AccessLevel): Promise<CommandReply | null> {
    const text = event.kind === "command" && !/^[!/]/.test(event.text.trim()) ? `!${event.text}` : event.text;
    const thread = "thread" in event ? event.thread : null;
    const ctx: CommandContext = {
      user: event.user,
      platform: event.platform,
      room: event.room,
      thread,
      fleetWide: this.#deps.access.isFleetWide(event.user),
      threadLink: (platform, room, root) => this.#adapters.get(platform)?.threadLink?.(room, root),
    };
    try {
      return await this.#deps.commands.dispatch(text, ctx, {
        isOperator: () => level !== "none",
        isAdmin: () => level === "admin",
      });
    } catch (error) {
      // Two texts: the detail for the log, a short one for the room.
      this.#deps.logger.error(
        { err: error, command: text.slice(0, 200), user: event.user },
        "chat command failed",
      );
      return `That command failed (${error instanceof Error ? error.message : String(error)}). The details are in the log.`;
    }
  }

  /**
   * A command's answer (privately where the platform can, unless the command says `room`), then
   * its cards, posted in the room and registered, so a reaction on one finds what it shows.
   */
  async #postReply(
    adapter: ChatAdapter,
    event: Inbound & { text: string },
    thread: string | null,
    reply: CommandReply,
  ): Promise<void> {
    const text = typeof reply === "string" ? reply : reply.text;
    if (text) await this.#answer(adapter, event, thread, text, this.#deps.commands.visibilityOf(event.text));
    if (typeof reply === "string") return;
    for (const { card, kind, subjectId } of reply.cards ?? []) {
      const ref = await adapter.post(event.room, thread, { card });
      await this.#cards.save({ ref, kind, sessionId: null, subjectId });
      if (!adapter.prefersButtons) for (const key of card.reactions ?? []) await adapter.react(ref, key);
    }
  }

  async #onMessage(
    adapter: ChatAdapter,
    event: Inbound & { kind: "message" },
    thread: string | null,
  ): Promise<void> {
    const { db } = this.#deps;
    const address = { platform: event.platform, room: event.room };
    let session: Session | undefined = thread
      ? await findSessionByThread(db, { ...address, thread })
      : undefined;
    if (session && (await this.#answerOrConsent(adapter, session, event))) return;
    // Not addressed to the bot (a mention is required there): it may continue a task, not start one.
    if (!session && event.addressed === false) return;
    if (!this.#deps.modelConfigured) {
      await adapter.post(event.room, thread ?? event.messageId, {
        text: "No model is configured, so I can only run `!` commands. Set OPENAI_BASE_URL, OPENAI_API_KEY and OIKOS_MODEL (see README.md: A model) and start again.",
      });
      return;
    }
    session ??= await createSession(db, {
      ...address,
      thread: thread ?? event.messageId,
      createdBy: event.user,
      goal: event.text.slice(0, 500),
    });
    const messageId = await this.#deps.recordMessage({
      sessionId: session.id,
      text: event.text,
      author: event.user,
      eventId: event.eventId,
    });
    await touchSession(db, session.id);
    await this.#deps.queue.enqueue("agent-turn", { sessionId: session.id, reason: "message", messageId });
  }

  /** A reply in a session's thread may answer its open question or decide a pending card. */
  async #answerOrConsent(
    adapter: ChatAdapter,
    session: Session,
    event: Inbound & { kind: "message" },
  ): Promise<boolean> {
    const { db } = this.#deps;
    const text = event.text.trim();
    const question = await openQuestion(db, session.id);
    if (question) {
      const options = Array.isArray(question.options) ? question.options : [];
      const picked = /^\d+$/.test(text) ? options[Number(text) - 1] : undefined;
      const answer = picked ?? text;
      const answered = await this.#deps.answerQuestion({ sessionId: session.id, answer, by: event.user });
      if (answered) {
        await this.#deps.recordMessage({
          sessionId: session.id,
          text: answer,
          author: event.user,
          eventId: event.eventId,
        });
        await this.#deps.events.publish(questionAnswered({ sessionId: session.id, questionId: question.id }));
        await this.#deps.queue.enqueue("agent-turn", { sessionId: session.id, reason: "answer" });
        return true;
      }
    }
    // A request, grant or decision the consent handler took: the operator's words stay in the
    // history the agent replays (the handler already woke it).
    const keepWords = () =>
      this.#deps.recordMessage({ sessionId: session.id, text, author: event.user, eventId: event.eventId });
    const typedNote = `typed “${text.length > 60 ? `${text.slice(0, 57)}…` : text}”`;
    const changes = parseChangeRequest(text);
    if (changes) {
      const sent = await this.#consent.onChangeRequest(adapter, session, {
        user: event.user,
        reason: changes.reason,
        eventId: event.eventId,
      });
      if (sent) await keepWords();
      return sent;
    }
    const grantAsked = parseGrantPhrase(text);
    if (grantAsked) {
      // "allow always" decides only a pending execution approval; otherwise it is a message to the agent.
      return this.#consent
        .onPhrase(adapter, session, {
          decision: "approve",
          user: event.user,
          via: "phrase",
          note: typedNote,
          grant: grantAsked,
        })
        .then(async (decided) => {
          if (decided) await keepWords();
          return decided;
        });
    }
    const pendingPhrase = await pendingTypedPhrase(db, session.id);
    const typedExactly = pendingPhrase && sameTypedPhrase(text, pendingPhrase);
    const consent = typedExactly ? null : this.#deps.parseConsent(text);
    if (consent?.kind === "none") return false;
    const act = {
      decision: consent?.kind === "denial" ? ("deny" as const) : ("approve" as const),
      user: event.user,
      via: "phrase" as const,
      note: typedNote,
      typedPhrase: text,
    };
    // A typed confirmation decides only the pending destructive approval whose card shows that
    // exact phrase. With nothing waiting for it, it opens nothing: it is a message to the agent,
    // which asks for the confirmation (a card with the phrase) when it reaches that step.
    if (consent?.kind === "typed_confirmation" && !pendingPhrase) return false;
    const decided = await this.#consent.onPhrase(adapter, session, act);
    if (decided) await keepWords();
    return decided;
  }

  async #onConsentGesture(
    adapter: ChatAdapter,
    event: Inbound & { kind: "reaction" | "button" },
    level: AccessLevel,
  ): Promise<void> {
    const card = await this.#cards.byMessage(event.platform, event.target);
    if (!card) return;
    const gesture = event.kind === "reaction" ? event.key : event.action;
    // Rights are per room: a gesture counts only in the room the card was posted in.
    if (card.ref.room !== event.room) {
      await this.#consent.ignore(card, event.user, "other_room", { gesture, room: event.room });
      return;
    }
    if (event.kind === "button" && event.action === "preview") {
      if (level === "none") {
        await this.#consent.ignore(card, event.user, "not_operator", { gesture });
        return;
      }
      // Slack's "Show preview" on an approval card: the preview goes into the card's thread.
      if (card.kind === "approval") {
        const text = await buildPreviewPost(this.#deps.db, card.subjectId);
        await adapter.post(card.ref.room, card.ref.thread, { text });
      }
      return;
    }
    if (event.kind === "button" && event.action.startsWith("option:") && card.kind === "question") {
      if (level === "none") {
        await this.#consent.ignore(card, event.user, "not_operator", { gesture });
        return;
      }
      await this.#answerByButton(card.subjectId, card.sessionId, Number(event.action.slice(7)), event.user);
      return;
    }
    const rollback = event.kind === "reaction" ? isRollbackReaction(event.key) : event.action === "rollback";
    if (rollback && this.#deps.requestRollback) {
      await this.#onRollbackGesture(adapter, card, event, level);
      return;
    }
    const grant = event.kind === "reaction" ? isGrantReaction(event.key) : event.action === "grant";
    const decision = grant ? "approve" : event.kind === "reaction" ? reactionKind(event.key) : event.action;
    if (decision !== "approve" && decision !== "deny") return;
    if (event.user === adapter.selfId) {
      await this.#consent.ignore(card, event.user, "self", { gesture });
      return;
    }
    if (level === "none") {
      await this.#consent.ignore(card, event.user, "not_operator", { gesture });
      return;
    }
    if (card.kind === "pattern") {
      // ✅ on a pattern card adopts its suggested runbook; anything else leaves it be.
      const adopted =
        decision === "approve" && !grant
          ? await adoptPattern(this.#deps.db, card.subjectId, event.user)
          : undefined;
      if (adopted && adopted.status !== "nothing") await adapter.edit(card.ref, { card: adopted.card });
      return;
    }
    await this.#consent.onCard(adapter, card, {
      decision,
      user: event.user,
      via: event.kind === "reaction" ? "reaction" : "button",
      eventId: event.eventId,
      note:
        event.kind === "reaction"
          ? event.key
          : grant
            ? "the ♾️ Always allow button"
            : `the ${decision === "approve" ? "Approve" : "Deny"} button`,
      ...(grant ? { grant: { days: null } } : {}),
    });
  }

  /** ⏪ by an operator: ask for the rollback (a typed confirmation in the task's thread); say why not otherwise. */
  async #onRollbackGesture(
    adapter: ChatAdapter,
    card: CardRecord,
    event: Inbound & { kind: "reaction" | "button" },
    level: AccessLevel,
  ): Promise<void> {
    if (event.user === adapter.selfId) return;
    if (level === "none") {
      const gesture = event.kind === "reaction" ? event.key : event.action;
      await this.#consent.ignore(card, event.user, "not_operator", { gesture });
      return;
    }
    const executionId = await executionToRollBack(this.#deps.db, card);
    const answer = executionId
      ? await this.#deps.requestRollback!(executionId, event.user)
      : "Nothing to roll back here: no snapshot was taken before the changes this card shows.";
    await adapter.post(card.ref.room, card.ref.thread, { text: answer });
  }

  async #answerByButton(
    questionId: string,
    sessionId: string | null,
    option: number,
    user: string,
  ): Promise<void> {
    if (!sessionId) return;
    const question = await getQuestion(this.#deps.db, questionId);
    const options = question && Array.isArray(question.options) ? question.options : [];
    const answer = options[option - 1];
    if (!answer) return;
    if (question?.status !== "open") return;
    if (!(await this.#deps.answerQuestion({ sessionId, answer, by: user }))) return;
    await this.#deps.recordMessage({
      sessionId,
      text: answer,
      author: user,
      eventId: `${questionId}:${option}`,
    });
    await this.#deps.events.publish(questionAnswered({ sessionId, questionId }));
    await this.#deps.queue.enqueue("agent-turn", { sessionId, reason: "answer" });
  }

  async #refuse(adapter: ChatAdapter, event: Inbound, thread: string | null): Promise<void> {
    const { db } = this.#deps;
    // A private answer (a slash command's) bothers nobody else: always told. In the room, at most hourly.
    const privately = event.kind === "command" && adapter.answer !== undefined;
    const tell = privately || (await shouldRefuse(db, event.platform, event.user));
    await recordAudit(
      db,
      { by: event.user },
      {
        action: "chat.refused",
        subject: `${event.platform}:${event.room}`,
        details: { eventId: event.eventId, told: tell },
      },
    );
    if (tell) await this.#answer(adapter, event, thread, REFUSAL, "private");
  }
}

function withoutControlCharacters(event: Inbound): Inbound {
  if (event.kind !== "message" && event.kind !== "command") return event;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const text = event.text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
  return text === event.text ? event : { ...event, text };
}
