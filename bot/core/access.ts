import { claimRefusal } from "../../store/chat-refusals.ts";
import type { Db } from "../../store/db.ts";
import type { RoomAccessConfig } from "./access-rules.ts";
import type { CardMentions } from "./card.ts";
import type { ChatAdapter } from "./chat-adapter.ts";
import { roomMentions } from "./mentions.ts";

export type { AccessRules, RoomAccessConfig } from "./access-rules.ts";

export type AccessLevel = "admin" | "operator" | "none";

/**
 * Who may do what, decided per room: the global operators and admins, the room's own ones, plus
 * (Matrix) anyone at the room's (else the global) power level and (Slack) members of the room's
 * (else the global) operator user group. The bot itself never has access: its own reactions on
 * its cards must not approve anything.
 */
export class RoomAccess {
  readonly #config: RoomAccessConfig;

  constructor(config: RoomAccessConfig) {
    this.#config = config;
  }

  /** Who a card waiting for a decision in `room` mentions on `platform` (never `self`). */
  mentions(platform: string, room: string, self?: string): CardMentions | undefined {
    return roomMentions(this.#config, platform, room, self);
  }

  /** Listed in the global lists: acts for every room (room-only people see only their room's work). */
  isFleetWide(user: string): boolean {
    return this.#config.admins.includes(user) || this.#config.operators.includes(user);
  }

  async level(adapter: ChatAdapter, room: string, user: string): Promise<AccessLevel> {
    if (user === adapter.selfId) return "none";
    const global = this.#config;
    const local = global.rooms?.[room];
    if (global.admins.includes(user) || local?.admins?.includes(user)) return "admin";
    if (global.operators.includes(user) || local?.operators?.includes(user)) return "operator";
    const group = local?.operatorGroup ?? global.operatorGroup;
    if (group !== undefined && adapter.isInUserGroup && (await adapter.isInUserGroup(user, group))) {
      return "operator";
    }
    const minPowerLevel = local?.minPowerLevel ?? global.minPowerLevel;
    if (minPowerLevel !== undefined && adapter.powerLevel) {
      const level = await adapter.powerLevel(room, user);
      if (level !== undefined && level >= minPowerLevel) return "operator";
    }
    return "none";
  }
}

const REFUSAL_INTERVAL_MS = 60 * 60 * 1000;

/**
 * True when a stranger should get the polite refusal now: at most once per user per hour,
 * remembered in the database so a restart does not make the bot chatty.
 */
export async function shouldRefuse(
  db: Db,
  platform: string,
  user: string,
  now: Date = new Date(),
): Promise<boolean> {
  return claimRefusal(db, { platform, user }, now, REFUSAL_INTERVAL_MS);
}
