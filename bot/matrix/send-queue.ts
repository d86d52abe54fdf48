import { MatrixError } from "matrix-bot-sdk";
import { retryWithBackoff } from "../../jobs/retry.ts";

export interface RetryOptions {
  /** Tries in all, the first included. Default 5. */
  attempts?: number;
  /** Backoff when the server names no retry_after_ms. Default 1000 ms, doubled per try. */
  baseDelayMs?: number;
  /** Longest single wait. Default 30 s. */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** A 429 came back: what the server asked to wait (0: nothing said, backoff). */
  onRateLimited?: (retryAfterMs: number) => void;
}

/** True for a 429 M_LIMIT_EXCEEDED from the homeserver (the SDK's MatrixError or a plain body). */
export function rateLimitDelay(error: unknown): number | undefined {
  if (error instanceof MatrixError && error.errcode === "M_LIMIT_EXCEEDED") return error.retryAfterMs ?? 0;
  const e = error as { errcode?: string; retryAfterMs?: number; statusCode?: number };
  if (e?.errcode === "M_LIMIT_EXCEEDED" || e?.statusCode === 429) return e.retryAfterMs ?? 0;
  return undefined;
}

/** Runs `send`, and on 429 waits what the server asked (or backs off) and tries again. */
export function withRateLimitRetry<T>(send: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  return retryWithBackoff(
    send,
    {
      attempts: options.attempts ?? 5,
      baseDelayMs: options.baseDelayMs ?? 1000,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      ...(options.sleep ? { sleep: options.sleep } : {}),
    },
    (error) => {
      const delay = rateLimitDelay(error);
      if (delay !== undefined) options.onRateLimited?.(delay);
      return delay;
    },
  );
}

/**
 * One queue per room: sends to a room go out in order, and a rate limit on one room holds back
 * only that room. A failed send does not block the ones after it.
 */
export class RoomSendQueues {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(room: string, send: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(room) ?? Promise.resolve();
    const next = previous.then(send, send);
    const tail = next.catch(() => undefined);
    this.#tails.set(room, tail);
    void tail.then(() => {
      if (this.#tails.get(room) === tail) this.#tails.delete(room);
    });
    return next;
  }

  async idle(): Promise<void> {
    await Promise.all([...this.#tails.values()]);
  }
}
