import { chatEventProcessed, markChatEventProcessed, recordChatEvent } from "../../store/chat-events.ts";
import type { Db } from "../../store/db.ts";

/**
 * Durable per-event dedupe (table chat_events). An event is recorded before it is handled and
 * marked processed after; a redelivery of a processed event (Slack retry, Matrix re-sync after
 * a crash) is skipped. An event recorded but never marked (crash mid-handling) is handled again
 * when it is delivered again, so nothing is lost; concurrent duplicates in this process wait.
 */
export class EventLedger {
  readonly #db: Db;
  readonly #inFlight = new Set<string>();

  constructor(db: Db) {
    this.#db = db;
  }

  /** True when this event should be handled now; false when it was (or is being) handled already. */
  async begin(platform: string, eventId: string, room: string | null): Promise<boolean> {
    const key = `${platform}\u0000${eventId}`;
    if (this.#inFlight.has(key)) return false;
    this.#inFlight.add(key);
    try {
      if ((await recordChatEvent(this.#db, { platform, eventId, room })).processed) {
        this.#inFlight.delete(key);
        return false;
      }
      return true;
    } catch (error) {
      this.#inFlight.delete(key);
      throw error;
    }
  }

  async finish(platform: string, eventId: string): Promise<void> {
    try {
      await markChatEventProcessed(this.#db, platform, eventId);
    } finally {
      this.#inFlight.delete(`${platform}\u0000${eventId}`);
    }
  }

  /** Lets a failed event be retried by a redelivery. */
  abandon(platform: string, eventId: string): void {
    this.#inFlight.delete(`${platform}\u0000${eventId}`);
  }

  async wasProcessed(platform: string, eventId: string): Promise<boolean> {
    return chatEventProcessed(this.#db, platform, eventId);
  }
}
