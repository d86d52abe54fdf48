import { randomBytes } from "node:crypto";

export interface DoubleEvent {
  event_id: string;
  room_id: string;
  sender: string;
  type: string;
  content: Record<string, unknown>;
  origin_server_ts: number;
  state_key?: string;
  /** Position in the server's stream: what sync tokens count. */
  pos: number;
}

export interface DoubleRoom {
  id: string;
  members: Map<string, "join" | "invite" | "leave">;
  state: Map<string, DoubleEvent>;
}

/**
 * The homeserver's memory: rooms, memberships, room state and one ordered event stream. Sync
 * tokens are stream positions, so a client resuming with an old token sees exactly what came
 * after it (which is what makes restarts testable).
 */
export class HomeserverState {
  readonly serverName: string;
  readonly rooms = new Map<string, DoubleRoom>();
  readonly events: DoubleEvent[] = [];
  #pos = 0;
  #waiters = new Set<() => void>();

  constructor(serverName: string) {
    this.serverName = serverName;
  }

  get position(): number {
    return this.#pos;
  }

  createRoom(input: {
    roomId?: string;
    creator: string;
    encrypted?: boolean;
    powerLevels?: Record<string, number>;
    members?: string[];
  }): string {
    const id = input.roomId ?? `!${randomBytes(6).toString("hex")}:${this.serverName}`;
    const room: DoubleRoom = { id, members: new Map(), state: new Map() };
    this.rooms.set(id, room);
    this.append(id, input.creator, "m.room.create", { creator: input.creator, room_version: "11" }, "");
    this.setMembership(id, input.creator, input.creator, "join");
    this.append(
      id,
      input.creator,
      "m.room.power_levels",
      {
        users: { [input.creator]: 100, ...(input.powerLevels ?? {}) },
        users_default: 0,
        events_default: 0,
        state_default: 50,
      },
      "",
    );
    this.append(id, input.creator, "m.room.join_rules", { join_rule: "invite" }, "");
    if (input.encrypted)
      this.append(id, input.creator, "m.room.encryption", { algorithm: "m.megolm.v1.aes-sha2" }, "");
    for (const member of input.members ?? []) this.setMembership(id, input.creator, member, "join");
    return id;
  }

  setMembership(
    roomId: string,
    sender: string,
    target: string,
    membership: "join" | "invite" | "leave",
  ): DoubleEvent {
    const room = this.room(roomId);
    room.members.set(target, membership);
    return this.append(roomId, sender, "m.room.member", { membership }, target);
  }

  append(
    roomId: string,
    sender: string,
    type: string,
    content: Record<string, unknown>,
    stateKey?: string,
  ): DoubleEvent {
    const room = this.room(roomId);
    this.#pos++;
    const event: DoubleEvent = {
      event_id: `$${this.#pos}-${randomBytes(4).toString("hex")}`,
      room_id: roomId,
      sender,
      type,
      content,
      origin_server_ts: Date.now(),
      pos: this.#pos,
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
    };
    this.events.push(event);
    if (stateKey !== undefined) room.state.set(`${type}\u0000${stateKey}`, event);
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
    return event;
  }

  room(roomId: string): DoubleRoom {
    const room = this.rooms.get(roomId);
    if (!room)
      throw Object.assign(new Error(`unknown room ${roomId}`), { errcode: "M_NOT_FOUND", status: 404 });
    return room;
  }

  event(eventId: string): DoubleEvent | undefined {
    return this.events.find((e) => e.event_id === eventId);
  }

  /** Resolves when a new event arrives or after `ms`, whichever is first (the sync long-poll). */
  waitForEvent(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** The room's state as it was before stream position `pos` (each key's latest event before it). */
  stateBefore(room: DoubleRoom, pos: number): DoubleEvent[] {
    const state = new Map<string, DoubleEvent>();
    for (const e of this.events)
      if (e.room_id === room.id && e.state_key !== undefined && e.pos < pos)
        state.set(`${e.type}\u0000${e.state_key}`, e);
    return [...state.values()];
  }

  /** GET /rooms/{id}/messages?dir=b: events of a room before stream position `before`, newest first. */
  messagesBefore(roomId: string, before: number, limit: number): Record<string, unknown> {
    const older = this.events.filter((e) => e.room_id === roomId && e.pos < before).reverse();
    const chunk = older.slice(0, limit);
    const last = chunk.at(-1);
    return {
      start: `p${before}`,
      chunk: chunk.map(wire),
      ...(last && older.length > chunk.length ? { end: `p${last.pos}` } : {}),
    };
  }

  /** The /sync response for `user` since stream position `since` (undefined: initial sync). */
  syncFor(
    user: string,
    since: number | undefined,
    timelineLimit = Number.POSITIVE_INFINITY,
  ): Record<string, unknown> {
    const join: Record<string, unknown> = {};
    const invite: Record<string, unknown> = {};
    for (const room of this.rooms.values()) {
      const membership = room.members.get(user);
      if (membership === "join") {
        // A room the user joined since `since` comes as in an initial sync, as Synapse sends it:
        // the room's recent timeline, events from before the join included, and its full state.
        const ownJoin = room.state.get(`m.room.member\u0000${user}`);
        const fresh = since === undefined || (ownJoin !== undefined && ownJoin.pos > since);
        const all = this.events.filter((e) => e.room_id === room.id && (fresh || e.pos > since!));
        const limit = Math.min(fresh ? 20 : Number.POSITIVE_INFINITY, timelineLimit);
        const timeline = all.length > limit ? all.slice(-limit) : all;
        if (timeline.length === 0 && since !== undefined) continue;
        const firstPos = timeline[0]?.pos ?? this.#pos + 1;
        join[room.id] = {
          timeline: {
            events: timeline.map(wire),
            limited: timeline.length < all.length,
            prev_batch: `p${firstPos}`,
          },
          state: { events: fresh ? this.stateBefore(room, firstPos).map(wire) : [] },
        };
      } else if (membership === "invite") {
        const inviteEvent = room.state.get(`m.room.member\u0000${user}`);
        if (since !== undefined && inviteEvent && inviteEvent.pos <= since) continue;
        invite[room.id] = {
          invite_state: {
            events: [...room.state.values()]
              .filter((e) => e.type !== "m.room.member" || e.state_key === user)
              .map((e) => ({ type: e.type, state_key: e.state_key, sender: e.sender, content: e.content })),
          },
        };
      }
    }
    return { next_batch: `s${this.#pos}`, rooms: { join, invite, leave: {} } };
  }
}

export function wire(e: DoubleEvent): Record<string, unknown> {
  const { pos: _pos, ...rest } = e;
  return { ...rest, unsigned: {} };
}
