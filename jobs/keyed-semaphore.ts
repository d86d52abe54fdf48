/**
 * At most `limit` holders per key at once; the rest wait in arrival order, and a release hands its
 * place straight to the next waiter. A waiter whose `signal` aborts leaves the line without taking
 * a place. One implementation for the execute worker's executions per target and the SSH pool's
 * channels per connection.
 */
export class KeyedSemaphore {
  readonly #limit: number;
  readonly #held = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();
  readonly #onIdle: ((key: string) => void) | undefined;

  /** `onIdle` runs when the last holder of a key releases with nobody waiting. */
  constructor(limit: number, options: { onIdle?: (key: string) => void } = {}) {
    if (!(limit >= 1)) throw new RangeError("a keyed semaphore's limit must be at least 1");
    this.#limit = limit;
    this.#onIdle = options.onIdle;
  }

  /** The release function of a place taken for `key` (idempotent), or null when `signal` aborted first. */
  async acquire(key: string, signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return null;
    const held = this.#held.get(key) ?? 0;
    if (held < this.#limit) this.#held.set(key, held + 1);
    else if (!(await this.#wait(key, signal))) return null;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#release(key);
    };
  }

  /** Places taken for `key` now. */
  held(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  /** Callers waiting for a place for `key`. */
  waiting(key: string): number {
    return this.#waiting.get(key)?.length ?? 0;
  }

  /** True once a releasing holder handed its place over; false when `signal` aborted first. */
  #wait(key: string, signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const queue = this.#waiting.get(key) ?? [];
      this.#waiting.set(key, queue);
      const take = (): void => {
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      };
      const onAbort = (): void => {
        const at = queue.indexOf(take);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.#waiting.get(key) === queue) this.#waiting.delete(key);
        resolve(false);
      };
      queue.push(take);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #release(key: string): void {
    const queue = this.#waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(key);
    if (next) {
      next(); // the place passes straight to the next waiter: `held` stays the same
      return;
    }
    const held = (this.#held.get(key) ?? 1) - 1;
    if (held > 0) {
      this.#held.set(key, held);
      return;
    }
    this.#held.delete(key);
    this.#onIdle?.(key);
  }
}
