import { OikosError } from "../../base/errors.ts";
import { redact } from "../../policy/redact.ts";
import { type DomainEvent, type DomainEventOf, type DomainEventType, domainEventSchema } from "./types.ts";

export type EventHandler<E extends DomainEvent = DomainEvent> = (event: E) => void | Promise<void>;

/** A handler failed (or a Redis message was unreadable: event undefined). Never thrown at the publisher. */
export type EventErrorReporter = (error: unknown, event: DomainEvent | undefined) => void;

/**
 * The domain event bus. Delivery is at most once and best effort: events tell listeners to look
 * at the store, they are not the record. A handler's failure never reaches the publisher or
 * the other handlers; it goes to the bus's onError.
 */
export interface EventBus {
  readonly kind: "in-process" | "redis";
  /** Validates the event (InvalidDomainEventError) and resolves when local handlers have settled. */
  publish(event: DomainEvent): Promise<void>;
  subscribe<T extends DomainEventType>(type: T, handler: EventHandler<DomainEventOf<T>>): () => void;
  subscribe(type: "*", handler: EventHandler): () => void;
  close(): Promise<void>;
}

export class InvalidDomainEventError extends OikosError {
  constructor(detail: string) {
    super("event_invalid", `Invalid domain event: ${detail}`);
    this.name = "InvalidDomainEventError";
  }
}

export function parseDomainEvent(value: unknown): DomainEvent {
  const result = domainEventSchema.safeParse(value);
  if (result.success) return result.data;
  const detail = result.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`);
  throw new InvalidDomainEventError(detail.join("; "));
}

export const reportEventErrorToStderr: EventErrorReporter = (error, event) => {
  const text = redact(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.stderr.write(`event ${event?.type ?? "(unreadable)"} handler failed: ${text}\n`);
};
