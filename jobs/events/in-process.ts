import { LocalDispatch } from "./local-dispatch.ts";
import {
  type EventBus,
  type EventErrorReporter,
  type EventHandler,
  parseDomainEvent,
  reportEventErrorToStderr,
} from "./port.ts";
import type { DomainEvent, DomainEventOf, DomainEventType } from "./types.ts";

/** Events stay in this process: the embedded default. */
export class InProcessEventBus implements EventBus {
  readonly kind = "in-process" as const;
  readonly #dispatch: LocalDispatch;
  #closed = false;

  constructor(options: { onError?: EventErrorReporter } = {}) {
    this.#dispatch = new LocalDispatch(options.onError ?? reportEventErrorToStderr);
  }

  async publish(event: DomainEvent): Promise<void> {
    const valid = parseDomainEvent(event);
    if (this.#closed) return;
    await this.#dispatch.deliver(valid);
  }

  subscribe<T extends DomainEventType>(type: T, handler: EventHandler<DomainEventOf<T>>): () => void;
  subscribe(type: "*", handler: EventHandler): () => void;
  subscribe(type: string, handler: EventHandler<never>): () => void {
    return this.#dispatch.add(type, handler as EventHandler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#dispatch.clear();
  }
}
