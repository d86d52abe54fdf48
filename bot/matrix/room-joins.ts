import type { Logger } from "../../base/logger.ts";
import type { KvStorageProvider } from "./kv-storage-provider.ts";
import type { MatrixApi } from "./matrix-api.ts";
import type { RoomEvent } from "./sync-schema.ts";

const joinedAtKey = (room: string) => `joined_at:${room}`;

/**
 * The bot's own join into a room (membership becoming `join`, not a profile change of a member
 * who was already in): from then on the room's messages are requests, before it they are history.
 */
export function isOwnJoin(event: RoomEvent, selfId: string): boolean {
  if (event.type !== "m.room.member" || event.state_key !== selfId) return false;
  if (event.content.membership !== "join") return false;
  const unsigned = event.unsigned as { prev_content?: { membership?: unknown } } | undefined;
  return unsigned?.prev_content?.membership !== "join";
}

/** Which events of one sync batch of a room are requests: those after the bot joined. */
export type LiveCheck = (event: RoomEvent, index: number) => boolean;

/**
 * When the bot joined each room (the join event's origin_server_ts), kept in the kv store so a
 * restart knows it: a homeserver sends a room's recent history with the join (and on the first
 * sync after it), and a message from before the join is context, never a request. Messages
 * sent after the join while oikos was down are still requests.
 */
export class RoomJoins {
  readonly #storage: KvStorageProvider;
  readonly #api: MatrixApi;
  readonly #logger: Logger;
  readonly #known = new Map<string, number>();

  constructor(options: { storage: KvStorageProvider; api: MatrixApi; logger: Logger }) {
    this.#storage = options.storage;
    this.#api = options.api;
    this.#logger = options.logger;
  }

  /**
   * `state` and `events` (oldest first) of one room in one sync: records a join found in them and
   * says which events are requests. In a batch holding the join, its position decides (the
   * join and a message can share a millisecond); otherwise the message's origin_server_ts.
   */
  async check(room: string, selfId: string, state: RoomEvent[], events: RoomEvent[]): Promise<LiveCheck> {
    const joinIndex = events.findLastIndex((e) => isOwnJoin(e, selfId));
    const join = joinIndex >= 0 ? events[joinIndex] : state.findLast((e) => isOwnJoin(e, selfId));
    if (join?.origin_server_ts !== undefined) await this.#record(room, join.origin_server_ts);
    const since = await this.joinedAt(room, selfId);
    return (event, index) => {
      if (joinIndex >= 0) return index > joinIndex;
      if (since === undefined || event.origin_server_ts === undefined) return true;
      return event.origin_server_ts >= since;
    };
  }

  /** Whether this sync of the room carries the bot's join (its earlier events are then history). */
  joinedIn(selfId: string, state: RoomEvent[], events: RoomEvent[]): boolean {
    return [...state, ...events].some((e) => isOwnJoin(e, selfId));
  }

  /**
   * When the bot joined `room`: remembered, stored, or read from the room's state (a deployment
   * from before this was recorded). Undefined when the homeserver cannot tell: every message is
   * then a request, as before.
   */
  async joinedAt(room: string, selfId: string): Promise<number | undefined> {
    const known = this.#known.get(room);
    if (known !== undefined) return known;
    const stored = Number(await this.#storage.readValue(joinedAtKey(room)));
    if (stored > 0) {
      this.#known.set(room, stored);
      return stored;
    }
    try {
      const member = (await this.#api.roomState(room)).find(
        (e) => e.type === "m.room.member" && e.state_key === selfId && e.content.membership === "join",
      );
      if (member?.origin_server_ts !== undefined) {
        await this.#record(room, member.origin_server_ts);
        return member.origin_server_ts;
      }
    } catch (error) {
      this.#logger.warn({ err: error, room }, "matrix: could not read when the bot joined the room");
    }
    return undefined;
  }

  /** A later join (after a leave) moves the line forward; an old join seen again does not move it back. */
  async #record(room: string, at: number): Promise<void> {
    const current = this.#known.get(room) ?? (Number(await this.#storage.readValue(joinedAtKey(room))) || 0);
    if (at <= current) {
      this.#known.set(room, current);
      return;
    }
    this.#known.set(room, at);
    await this.#storage.storeValue(joinedAtKey(room), String(at));
  }
}
