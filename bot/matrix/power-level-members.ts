import { LRUCache } from "lru-cache";
import type { MatrixApi } from "./matrix-api.ts";
import type { RoomEvent } from "./sync-schema.ts";

/**
 * An approver group by Matrix power level (approvals.rules `{ minPowerLevel: N }`, issue #32): the
 * room's joined members whose power level is N or more, read from the room's state as the spec
 * defines it (m.room.power_levels: `users` per user, else `users_default`, 0 when absent; without a
 * power-levels event the room's creator has 100 and everyone else 0). Read when someone decides and
 * kept a short while, so a burst of votes asks the homeserver once; a changed power level counts
 * after at most `ttlMs`.
 */
export const POWER_LEVEL_CACHE_MS = 30_000;

export function membersAtLeast(state: readonly RoomEvent[], atLeast: number, self: string): string[] {
  const levels = state.find((e) => e.type === "m.room.power_levels" && e.state_key === "")?.content as
    | { users?: Record<string, unknown>; users_default?: unknown }
    | undefined;
  const creator = state.find((e) => e.type === "m.room.create" && e.state_key === "")?.sender;
  const levelOf = (user: string): number => {
    if (!levels) return user === creator ? 100 : 0;
    const own = levels.users?.[user];
    if (typeof own === "number") return own;
    return typeof levels.users_default === "number" ? levels.users_default : 0;
  };
  return state
    .filter(
      (e) =>
        e.type === "m.room.member" &&
        e.state_key !== undefined &&
        e.state_key !== self &&
        e.content.membership === "join",
    )
    .map((e) => e.state_key as string)
    .filter((user) => levelOf(user) >= atLeast)
    .sort();
}

export class PowerLevelMembers {
  readonly #api: Pick<MatrixApi, "roomState">;
  readonly #cache: LRUCache<string, RoomEvent[]>;

  constructor(api: Pick<MatrixApi, "roomState">, ttlMs = POWER_LEVEL_CACHE_MS) {
    this.#api = api;
    this.#cache = new LRUCache<string, RoomEvent[]>({ max: 256, ttl: Math.max(1, ttlMs) });
  }

  /** Joined members of `room` at `atLeast` or above (never `self`); throws when the homeserver cannot tell. */
  async members(room: string, atLeast: number, self: string): Promise<string[]> {
    let state = this.#cache.get(room);
    if (!state) {
      state = await this.#api.roomState(room);
      this.#cache.set(room, state);
    }
    return membersAtLeast(state, atLeast, self);
  }
}
