import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Logger } from "../../base/logger.ts";
import type { ApproverGroup } from "../../policy/quorum.ts";
import type { ChatAdapter, InboundSink, MessageRef, Outbound } from "../core/chat-adapter.ts";
import { ConcurrentInbound } from "../core/concurrent-inbound.ts";
import { toInbound } from "./inbound-event.ts";
import type { KvStorageProvider } from "./kv-storage-provider.ts";
import type { MatrixApi } from "./matrix-api.ts";
import { newTxnId, postTxnId } from "./matrix-api.ts";
import { editContent, messageContent, reactionContent, threadedContent } from "./message-content.ts";
import { PowerLevelMembers } from "./power-level-members.ts";
import { RoomJoins } from "./room-joins.ts";
import { type RetryOptions, RoomSendQueues, withRateLimitRetry } from "./send-queue.ts";
import type { RoomEvent, SyncResponse } from "./sync-schema.ts";
import { fetchTimelineGap } from "./timeline-gap.ts";

export interface MatrixAdapterOptions {
  api: MatrixApi;
  storage: KvStorageProvider;
  /** Room ids the bot serves and may join. */
  rooms: readonly string[];
  /** Users whose invites the bot accepts into any of its rooms (the global operators and admins). */
  allowedInviters: readonly string[];
  /** Per room id: further users whose invites into that room the bot accepts (its own operators and admins). */
  roomInviters?: Readonly<Record<string, readonly string[]>>;
  logger: Logger;
  /** Long-poll length of one /sync. Default 30 000 ms. */
  syncTimeoutMs?: number;
  retry?: RetryOptions;
  /** The token came from a password login: log it out at stop so devices do not pile up. */
  logoutOnStop?: boolean;
  /** How long the room state read for an approver group by power level is kept (default 30 s). */
  powerLevelCacheMs?: number;
}

const JOIN_ATTEMPTS = 5;
/** Events (and threads) each per-event map remembers. */
const EVENT_MEMORY = 10_000;
const lastSeenKey = (room: string) => `last_event:${room}`;
const lastEditKey = (eventId: string) => `last_edit:${eventId}`;

export const ENCRYPTED_ROOM_NOTICE =
  "This room is end-to-end encrypted, and oikos does not support encryption, so it will not read or act on anything here. " +
  "Please use an invite-only, unencrypted room for operations (see docs/matrix.md).";

/**
 * Matrix through matrix-bot-sdk, with the SDK's gaps closed here: our own sync loop (the token
 * is saved in Postgres only after a batch was handled, and the core records every event durably
 * before acting, so a crash neither loses nor repeats one), handlers awaited and isolated,
 * 429 retried with retry_after_ms behind a per-room send queue, invites accepted only from
 * allowed inviters into allowed rooms (a failed join is retried, never fails the batch), a
 * limited timeline backfilled to the last event seen, messages from before the bot joined a room
 * kept as history (room-joins.ts), encrypted rooms refused, and thread /
 * edit / reaction content built by hand.
 */
export class MatrixAdapter implements ChatAdapter {
  readonly platform = "matrix";
  readonly #options: MatrixAdapterOptions;
  readonly #queues = new RoomSendQueues();
  readonly #abort = new AbortController();
  // Bounded: a long-running bot sees events without end; the least recently used are forgotten
  // (an old thread's reply then falls back to its root, an old card's edit is simply sent).
  /** Thread root of events seen or sent (for replies from clients without threads). */
  readonly #threadOf = new LRUCache<string, string>({ max: EVENT_MEMORY });
  /** Newest event per thread: the target of the thread's reply fallback. */
  readonly #latest = new LRUCache<string, string>({ max: EVENT_MEMORY });
  /** What each message was last edited to (a digest), so an identical edit is not sent again. */
  readonly #lastEdit = new LRUCache<string, string>({ max: EVENT_MEMORY });
  readonly #encrypted = new Set<string>();
  /** Rooms whose sends the homeserver is rate-limiting now: logged once when it begins and once when it ends. */
  readonly #rateLimited = new Set<string>();
  /** Allowed invites whose join failed: retried on each later sync, up to JOIN_ATTEMPTS in all. */
  readonly #pendingJoins = new Map<string, { inviter: string | undefined; attempts: number }>();
  #selfId = "";
  #loop: Promise<void> | undefined;
  #stopped = false;

  readonly #joins: RoomJoins;
  readonly #powerLevels: PowerLevelMembers;

  constructor(options: MatrixAdapterOptions) {
    this.#options = options;
    this.#joins = new RoomJoins(options);
    this.#powerLevels = new PowerLevelMembers(options.api, options.powerLevelCacheMs);
  }

  get selfId(): string {
    return this.#selfId;
  }

  async start(sink: InboundSink): Promise<void> {
    const { api, rooms, logger } = this.#options;
    this.#selfId = await api.whoami();
    for (const room of rooms) {
      try {
        await api.join(room);
        await this.#checkEncryption(room);
      } catch (error) {
        logger.warn({ err: error, room }, "matrix: could not join a configured room (invite the bot first)");
      }
    }
    // Catch up before returning: after start(), every new room event is a request.
    const token = await this.#options.storage.getSyncToken();
    const first = await api.sync(token, 0, this.#abort.signal);
    await this.#handleSync(first, sink, token === null);
    await this.#options.storage.setSyncToken(first.next_batch);
    this.#loop = this.#syncLoop(sink);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    await this.#loop;
    await this.#queues.idle();
    if (this.#options.logoutOnStop) {
      await this.#options.api
        .logout()
        .catch((error: unknown) => this.#options.logger.warn({ err: error }, "matrix: logout failed"));
    }
  }

  async post(room: string, thread: string | null, message: Outbound): Promise<MessageRef> {
    const content = thread
      ? threadedContent(message, thread, this.#latest.get(thread) ?? thread)
      : messageContent(message);
    const once = "card" in message ? message.card.postKey : undefined;
    const eventId = await this.#send(room, "m.room.message", content, once && postTxnId(once));
    if (thread) {
      this.#latest.set(thread, eventId);
      this.#threadOf.set(eventId, thread);
    }
    return { platform: this.platform, room, messageId: eventId, thread };
  }

  /**
   * Edits a message unless it shows this content already. What each message was last edited to is
   * kept in `kv` too (a digest), so a restarted process does not send the same edit again.
   */
  async edit(ref: MessageRef, message: Outbound): Promise<void> {
    const content = editContent(ref.messageId, message);
    const fingerprint = createHash("sha256")
      .update(JSON.stringify(content["m.new_content"]))
      .digest("hex")
      .slice(0, 32);
    const key = lastEditKey(ref.messageId);
    const last = this.#lastEdit.get(ref.messageId) ?? (await this.#options.storage.readValue(key));
    if (last === fingerprint) return;
    await this.#send(ref.room, "m.room.message", content);
    this.#lastEdit.set(ref.messageId, fingerprint);
    await this.#options.storage.storeValue(key, fingerprint);
  }

  /** matrix.to opens the thread's root event in any client. */
  threadLink(room: string, thread: string): string {
    return `https://matrix.to/#/${encodeURIComponent(room)}/${encodeURIComponent(thread)}`;
  }

  async react(ref: MessageRef, key: string): Promise<void> {
    await this.#send(ref.room, "m.reaction", reactionContent(ref.messageId, key));
  }

  async typing(room: string, active: boolean): Promise<void> {
    await this.#queues.run(room, () =>
      withRateLimitRetry(
        () => this.#options.api.typing(room, this.#selfId, active, 30_000),
        this.#options.retry,
      ),
    );
  }

  async powerLevel(room: string, user: string): Promise<number | undefined> {
    const levels = (await this.#options.api.stateEvent(room, "m.room.power_levels", "")) as
      | { users?: Record<string, number>; users_default?: number }
      | undefined;
    if (!levels) return undefined;
    return levels.users?.[user] ?? levels.users_default ?? 0;
  }

  /** Approvers by power level (approvals.rules `{ minPowerLevel: N }`): the room's members at N or above. */
  async approverGroupMembers(room: string, group: ApproverGroup): Promise<readonly string[] | undefined> {
    if (group.kind !== "matrix_power_level") return undefined;
    try {
      return await this.#powerLevels.members(room, group.atLeast, this.#selfId);
    } catch (error) {
      this.#options.logger.warn(
        { err: error, room },
        "matrix: cannot read the room's power levels for an approver group; nobody gets in through it until this is fixed",
      );
      return undefined;
    }
  }

  #send(
    room: string,
    eventType: string,
    content: Record<string, unknown>,
    txnId: string = newTxnId(),
  ): Promise<string> {
    return this.#queues.run(room, async () => {
      const eventId = await withRateLimitRetry(
        () => this.#options.api.send(room, eventType, content, txnId),
        {
          ...this.#options.retry,
          onRateLimited: (retryAfterMs) => this.#noteRateLimit(room, retryAfterMs),
        },
      );
      if (this.#rateLimited.delete(room))
        this.#options.logger.info({ room }, "matrix: sends to the room go through again after a rate limit");
      return eventId;
    });
  }

  #noteRateLimit(room: string, retryAfterMs: number): void {
    if (this.#rateLimited.has(room)) return;
    this.#rateLimited.add(room);
    this.#options.logger.warn(
      { room, retryAfterMs },
      "matrix: the homeserver rate-limits the bot (429 M_LIMIT_EXCEEDED); sends to the room wait and are retried. If it persists, exempt the bot's account from rate limits (Synapse: the admin API override_ratelimit)",
    );
  }

  async #syncLoop(sink: InboundSink): Promise<void> {
    const { api, storage, logger } = this.#options;
    let token = await storage.getSyncToken();
    let failures = 0;
    while (!this.#stopped) {
      try {
        const response = await api.sync(token, this.#options.syncTimeoutMs ?? 30_000, this.#abort.signal);
        await this.#handleSync(response, sink, false);
        token = response.next_batch;
        await storage.setSyncToken(token);
        failures = 0;
      } catch (error) {
        if (this.#stopped) return;
        failures++;
        logger.warn({ err: error, failures }, "matrix sync failed; retrying");
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** Math.min(failures, 6))));
      }
    }
  }

  /** `history`: the very first sync of this account returns old events; they are context, not requests. */
  async #handleSync(response: SyncResponse, sink: InboundSink, history: boolean): Promise<void> {
    await this.#retryPendingJoins();
    const rooms = response.rooms;
    if (!rooms) return;
    for (const [roomId, invite] of Object.entries(rooms.invite)) {
      const own = invite.invite_state?.events.find(
        (e) => e.type === "m.room.member" && e.state_key === this.#selfId,
      );
      await this.#tryInvite(roomId, own?.sender, 0);
    }
    for (const [roomId, joined] of Object.entries(rooms.join)) {
      if (!this.#options.rooms.includes(roomId)) continue;
      const timeline = joined.timeline?.events ?? [];
      const state = joined.state?.events ?? [];
      const events = [...state, ...timeline];
      if (events.some((e) => e.type === "m.room.encryption")) await this.#refuseEncrypted(roomId);
      if (this.#encrypted.has(roomId) || history) {
        await this.#joins.check(roomId, this.#selfId, state, timeline);
        for (const e of timeline) this.#remember(e);
      } else {
        // The sync that brings the join brings the room's history too: no gap to fill before it.
        const gap =
          joined.timeline?.limited && !this.#joins.joinedIn(this.#selfId, state, timeline)
            ? await this.#fillGap(roomId, joined.timeline.prev_batch)
            : [];
        const batch = [...gap, ...timeline];
        const live = await this.#joins.check(roomId, this.#selfId, state, batch);
        const newThreads = new ConcurrentInbound(sink);
        for (const [index, event] of batch.entries()) {
          this.#remember(event);
          const inbound = toInbound(roomId, event, this.#selfId, (id) => this.#threadOf.get(id));
          if (!inbound) continue;
          if (live(event, index)) await newThreads.handle(inbound);
          else
            this.#options.logger.debug(
              { room: roomId, event: event.event_id },
              "matrix: an event from before the bot joined the room is history, not a request",
            );
        }
        // Every event of the batch is handled before the sync token moves on.
        await newThreads.settled();
      }
      const newest = timeline.at(-1);
      if (newest) await this.#options.storage.storeValue(lastSeenKey(roomId), newest.event_id);
    }
  }

  /**
   * A limited timeline left events out (a busy room, or a long outage): fetch them back to the
   * last event seen in the room, so no request in the gap is lost. The ledger drops any event
   * that was handled already. On failure the gap is logged and skipped, as before.
   */
  async #fillGap(roomId: string, prevBatch: string | undefined): Promise<RoomEvent[]> {
    const { api, storage, logger } = this.#options;
    const lastSeen = await storage.readValue(lastSeenKey(roomId));
    if (!prevBatch || !lastSeen) {
      logger.warn({ room: roomId }, "matrix: sync timeline was limited; the gap cannot be fetched, skipped");
      return [];
    }
    try {
      const { events, complete } = await fetchTimelineGap(api, roomId, prevBatch, lastSeen);
      if (!complete)
        logger.warn({ room: roomId }, "matrix: timeline gap too long; its oldest part was skipped");
      return events;
    } catch (error) {
      logger.warn(
        { err: error, room: roomId },
        "matrix: could not fetch a timeline gap; its events were skipped",
      );
      return [];
    }
  }

  /**
   * One failing invite must not fail the batch: the token would not advance and the same batch
   * would fail on every retry, stalling the bot. A failed join is logged and retried later.
   */
  async #tryInvite(roomId: string, inviter: string | undefined, attemptsBefore: number): Promise<void> {
    try {
      await this.#onInvite(roomId, inviter);
      this.#pendingJoins.delete(roomId);
    } catch (error) {
      const attempts = attemptsBefore + 1;
      const giveUp = attempts >= JOIN_ATTEMPTS;
      this.#options.logger.error(
        { err: error, room: roomId, inviter, attempts },
        giveUp
          ? "matrix: could not join on invite; giving up (invite the bot again)"
          : "matrix: could not join on invite; will retry on the next sync",
      );
      if (giveUp) this.#pendingJoins.delete(roomId);
      else this.#pendingJoins.set(roomId, { inviter, attempts });
    }
  }

  async #retryPendingJoins(): Promise<void> {
    for (const [roomId, pending] of [...this.#pendingJoins]) {
      await this.#tryInvite(roomId, pending.inviter, pending.attempts);
    }
  }

  async #onInvite(roomId: string, inviter: string | undefined): Promise<void> {
    const { api, rooms, allowedInviters, roomInviters, logger } = this.#options;
    const mayInvite = (user: string) =>
      allowedInviters.includes(user) || (roomInviters?.[roomId]?.includes(user) ?? false);
    if (rooms.includes(roomId) && inviter && mayInvite(inviter)) {
      await api.join(roomId);
      await this.#checkEncryption(roomId);
      logger.info({ room: roomId, inviter }, "matrix: joined on invite");
      return;
    }
    logger.warn({ room: roomId, inviter }, "matrix: declined an invite (room or inviter not allowed)");
    await api
      .leave(roomId)
      .catch((error: unknown) =>
        logger.warn({ err: error, room: roomId }, "matrix: could not decline invite"),
      );
  }

  async #checkEncryption(room: string): Promise<void> {
    if (await this.#options.api.stateEvent(room, "m.room.encryption", "")) await this.#refuseEncrypted(room);
  }

  async #refuseEncrypted(room: string): Promise<void> {
    if (this.#encrypted.has(room)) return;
    this.#encrypted.add(room);
    this.#options.logger.warn({ room }, "matrix: room is encrypted; oikos ignores it");
    const flag = `encrypted_notice:${room}`;
    if (await this.#options.storage.readValue(flag)) return;
    await this.post(room, null, { text: ENCRYPTED_ROOM_NOTICE });
    await this.#options.storage.storeValue(flag, new Date().toISOString());
  }

  #remember(event: RoomEvent): void {
    const rel = event.content["m.relates_to"] as { rel_type?: string; event_id?: string } | undefined;
    if (rel?.rel_type === "m.thread" && rel.event_id) {
      this.#threadOf.set(event.event_id, rel.event_id);
      this.#latest.set(rel.event_id, event.event_id);
    }
  }
}
