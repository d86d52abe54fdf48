import type { Logger } from "../../base/logger.ts";
import { SlackCallError } from "./slack-errors.ts";

/** Shows and clears "this message is out of date" while its update waits (the ⏳ reaction). */
export interface DelayMarker {
  delayed(key: string): Promise<void>;
  caughtUp(key: string): Promise<void>;
}

interface State {
  /** The newest update submitted while one was running or waiting: the only one still worth sending. */
  latest: (() => Promise<void>) | undefined;
  delayed: boolean;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Updates of one message, never blocking anyone else: an update runs at once unless one of the
 * same message is running or waiting, in which case it replaces whatever was queued (only the
 * newest content matters). A rate-limited update resolves at once — the caller, and every other
 * card, go on — and is sent, newest content first, after Retry-After; the message shows the
 * delay marker meanwhile.
 */
export class MessageUpdates {
  readonly #states = new Map<string, State>();
  readonly #marker: DelayMarker;
  readonly #logger: Logger;

  constructor(deps: { marker: DelayMarker; logger: Logger }) {
    this.#marker = deps.marker;
    this.#logger = deps.logger;
  }

  /** Resolves once `send` (or a newer update) went out, or was deferred by a rate limit. */
  update(key: string, send: () => Promise<void>): Promise<void> {
    const state = this.#states.get(key);
    if (state) {
      state.latest = send;
      return Promise.resolve();
    }
    const fresh: State = { latest: undefined, delayed: false, timer: undefined };
    this.#states.set(key, fresh);
    return this.#run(key, fresh, send, true);
  }

  /** How many messages have an update waiting out a rate limit. */
  get waiting(): number {
    return [...this.#states.values()].filter((s) => s.timer !== undefined).length;
  }

  /** Stops the timers; updates still waiting are dropped (and said so). */
  stop(): void {
    const dropped = this.waiting;
    for (const state of this.#states.values()) clearTimeout(state.timer);
    this.#states.clear();
    if (dropped > 0)
      this.#logger.warn({ dropped }, "slack: stopping with card updates still waiting out a rate limit");
  }

  async #run(key: string, state: State, send: () => Promise<void>, first: boolean): Promise<void> {
    let current = send;
    for (;;) {
      try {
        await current();
      } catch (error) {
        if (error instanceof SlackCallError && error.kind === "ratelimited") {
          this.#defer(key, state, state.latest ?? current, error.retryAfterS ?? 1);
          return;
        }
        if (!state.latest) {
          this.#states.delete(key);
          if (state.delayed) await this.#clearMarker(key);
          if (first) throw error;
          this.#logger.error({ err: error, key }, "slack: a delayed card update failed");
          return;
        }
        this.#logger.warn({ err: error, key }, "slack: a card update failed; sending the newer one");
      }
      if (!this.#states.has(key)) return;
      if (state.latest) {
        current = state.latest;
        state.latest = undefined;
        first = false;
        continue;
      }
      this.#states.delete(key);
      if (state.delayed) await this.#clearMarker(key);
      return;
    }
  }

  #defer(key: string, state: State, send: () => Promise<void>, retryAfterS: number): void {
    state.latest = undefined;
    if (!state.delayed) {
      state.delayed = true;
      this.#marker
        .delayed(key)
        .catch((error: unknown) =>
          this.#logger.debug({ err: error, key }, "slack: could not mark a delayed card"),
        );
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      const next = state.latest ?? send;
      state.latest = undefined;
      void this.#run(key, state, next, false);
    }, retryAfterS * 1000);
    state.timer.unref?.();
  }

  async #clearMarker(key: string): Promise<void> {
    await this.#marker
      .caughtUp(key)
      .catch((error: unknown) =>
        this.#logger.debug({ err: error, key }, "slack: could not clear a delayed card's marker"),
      );
  }
}
