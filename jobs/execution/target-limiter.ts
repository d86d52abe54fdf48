/**
 * At most `limit` executions at once per target in this process; the rest wait in arrival order.
 * (Across worker processes the pool's per-connection channel bound still applies.)
 */
export class TargetLimiter {
  readonly #limit: number;
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(limit: number) {
    if (!(limit >= 1)) throw new RangeError("per-target limit must be at least 1");
    this.#limit = limit;
  }

  async acquire(target: string, signal?: AbortSignal): Promise<() => void> {
    if ((this.#active.get(target) ?? 0) >= this.#limit) {
      await new Promise<void>((resolve, reject) => {
        const queue = this.#waiting.get(target) ?? [];
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          const at = queue.indexOf(wake);
          if (at >= 0) queue.splice(at, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(wake);
        this.#waiting.set(target, queue);
      });
    } else {
      this.#active.set(target, (this.#active.get(target) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.get(target)?.shift();
      if (next)
        next(); // the slot passes straight to the next waiter
      else this.#active.set(target, (this.#active.get(target) ?? 1) - 1);
    };
  }

  active(target: string): number {
    return this.#active.get(target) ?? 0;
  }
}
