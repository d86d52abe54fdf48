import { KeyedSemaphore } from "../jobs/keyed-semaphore.ts";

/** Default `model.concurrentTurns`: model calls are network-bound, a process can carry many at once. */
export const DEFAULT_CONCURRENT_TURNS = 16;

/**
 * The process's turn slots (`model.concurrentTurns`): a turn holds one while it builds its context,
 * calls the model and stores the reply, and gives it back while its tool calls run — a `run` waiting
 * for its command, a fan-out, a status wait — so a turn waiting on an execution holds no slot.
 */
export class TurnSlots {
  readonly #slots: KeyedSemaphore;
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
    this.#slots = new KeyedSemaphore(limit);
  }

  /** A slot's release function, or null when `signal` aborted while waiting for one. */
  acquire(signal?: AbortSignal): Promise<(() => void) | null> {
    return this.#slots.acquire("turn", signal);
  }

  /** Slots held now (for tests and status). */
  get held(): number {
    return this.#slots.held("turn");
  }
}
