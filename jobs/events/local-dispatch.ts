import type { EventErrorReporter, EventHandler } from "./port.ts";
import type { DomainEvent } from "./types.ts";

/** Handlers by event type ("*" for all); delivers to each in isolation and awaits them all. */
export class LocalDispatch {
  readonly #handlers = new Map<string, Set<EventHandler>>();
  readonly #onError: EventErrorReporter;

  constructor(onError: EventErrorReporter) {
    this.#onError = onError;
  }

  add(type: string, handler: EventHandler): () => void {
    // Wrapped so the same function subscribed twice is two subscriptions, each removable once.
    const entry: EventHandler = (event) => handler(event);
    const set = this.#handlers.get(type) ?? new Set();
    set.add(entry);
    this.#handlers.set(type, set);
    return () => {
      set.delete(entry);
    };
  }

  async deliver(event: DomainEvent): Promise<void> {
    const handlers = [...(this.#handlers.get(event.type) ?? []), ...(this.#handlers.get("*") ?? [])];
    await Promise.all(
      handlers.map(async (handler) => {
        try {
          await handler(event);
        } catch (error) {
          this.#reportSafely(error, event);
        }
      }),
    );
  }

  clear(): void {
    this.#handlers.clear();
  }

  #reportSafely(error: unknown, event: DomainEvent): void {
    try {
      this.#onError(error, event);
    } catch {
      // A failing reporter must not break delivery either.
    }
  }
}
