import type { Kysely } from "kysely";
import type { Database } from "../../store/schema.ts";
import type { ChatAdapter } from "./chat-adapter.ts";

export interface RoomAccessConfig {
  /** User ids allowed to talk to the agent and approve (every platform). */
  operators: readonly string[];
  /** User ids allowed to run admin commands; admins are operators too. */
  admins: readonly string[];
  /** Matrix: members at or above this power level are operators in that room. */
  minPowerLevel?: number;
}

export type AccessLevel = "admin" | "operator" | "none";

/**
 * Who may do what, decided per room: configured operators and admins, plus (Matrix) anyone at
 * the configured power level and (Slack) members of the operator user group. The bot itself never has access: its own reactions on its cards
 * must not approve anything.
 */
export class RoomAccess {
  readonly #config: RoomAccessConfig;

  constructor(config: RoomAccessConfig) {
    this.#config = config;
  }

  async level(adapter: ChatAdapter, room: string, user: string): Promise<AccessLevel> {
    if (user === adapter.selfId) return "none";
    if (this.#config.admins.includes(user)) return "admin";
    if (this.#config.operators.includes(user)) return "operator";
    if (adapter.isPlatformOperator && (await adapter.isPlatformOperator(user))) return "operator";
    if (this.#config.minPowerLevel !== undefined && adapter.powerLevel) {
      const level = await adapter.powerLevel(room, user);
      if (level !== undefined && level >= this.#config.minPowerLevel) return "operator";
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
  db: Kysely<Database>,
  platform: string,
  user: string,
  now: Date = new Date(),
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - REFUSAL_INTERVAL_MS);
  const updated = await db
    .updateTable("chat_refusals")
    .set({ refused_at: now })
    .where("platform", "=", platform)
    .where("user_id", "=", user)
    .where("refused_at", "<", cutoff)
    .returning("user_id")
    .executeTakeFirst();
  if (updated) return true;
  const inserted = await db
    .insertInto("chat_refusals")
    .values({ platform, user_id: user, refused_at: now })
    .onConflict((oc) => oc.columns(["platform", "user_id"]).doNothing())
    .returning("user_id")
    .executeTakeFirst();
  return inserted !== undefined;
}
