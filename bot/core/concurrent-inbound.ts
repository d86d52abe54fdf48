import type { Inbound, InboundSink } from "./chat-adapter.ts";

/**
 * The events of one delivered batch, in order, with one exception: a top-level message (no
 * thread) starts a session of its own and shares nothing with its neighbours, so it is handled
 * alongside the other new threads. Anything else (a reply in a thread, a reaction, a button, a
 * command) first waits for every new thread begun before it, so order within a thread holds. Fifty
 * operators asking at once no longer wait for each other's intake.
 */
export class ConcurrentInbound {
  readonly #sink: InboundSink;
  #begun: Promise<void>[] = [];

  constructor(sink: InboundSink) {
    this.#sink = sink;
  }

  async handle(event: Inbound): Promise<void> {
    if (event.kind === "message" && event.thread === null) {
      const handled = this.#sink(event);
      handled.catch(() => {}); // observed by settled(); a failure fails the batch there
      this.#begun.push(handled);
      return;
    }
    await this.settled();
    await this.#sink(event);
  }

  /** Resolves when every new thread begun so far is handled; rejects when one failed. */
  async settled(): Promise<void> {
    const begun = this.#begun;
    this.#begun = [];
    await Promise.all(begun);
  }
}
