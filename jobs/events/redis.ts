import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { z } from "zod";
import { type OutageLogger, RedisOutage } from "../redis-outage.ts";
import { LocalDispatch } from "./local-dispatch.ts";
import {
  type EventBus,
  type EventErrorReporter,
  type EventHandler,
  InvalidDomainEventError,
  parseDomainEvent,
  reportEventErrorToStderr,
} from "./port.ts";
import type { DomainEvent, DomainEventOf, DomainEventType } from "./types.ts";

export interface RedisEventBusOptions {
  redisUrl: string;
  /** Channel is `<prefix>:events`. Default "oikos". */
  prefix?: string;
  onError?: EventErrorReporter;
  /** A Redis outage is told here, once (warn) and its end (info), instead of per reconnect attempt. */
  logger?: OutageLogger;
}

const envelopeSchema = z.object({ origin: z.string(), event: z.unknown() });

/**
 * Events across processes over one Redis pub/sub channel. Local subscribers of the publishing
 * instance get the event directly (exactly once: the echo from Redis is skipped by origin id),
 * other instances get it from Redis after zod validation.
 */
export class RedisEventBus implements EventBus {
  readonly kind = "redis" as const;
  readonly #origin = randomUUID();
  readonly #channel: string;
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #dispatch: LocalDispatch;
  readonly #onError: EventErrorReporter;
  readonly #ready: Promise<void>;
  #closing: Promise<void> | null = null;

  constructor(options: RedisEventBusOptions) {
    this.#onError = options.onError ?? reportEventErrorToStderr;
    this.#dispatch = new LocalDispatch(this.#onError);
    this.#channel = `${options.prefix ?? "oikos"}:events`;
    this.#publisher = new Redis(options.redisUrl);
    this.#subscriber = new Redis(options.redisUrl);
    const outage = new RedisOutage("events", options.logger);
    for (const connection of [this.#publisher, this.#subscriber]) {
      outage.watch(connection);
      connection.on("error", (error) => {
        if (!outage.error(error)) this.#onError(error, undefined);
      });
    }
    this.#subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.#channel) void this.#receive(message);
    });
    this.#ready = this.#subscriber.subscribe(this.#channel).then(
      () => undefined,
      (error: unknown) => this.#onError(error, undefined),
    );
  }

  /** Resolves once this instance is subscribed (events published before that do not reach it). */
  ready(): Promise<void> {
    return this.#ready;
  }

  async publish(event: DomainEvent): Promise<void> {
    const valid = parseDomainEvent(event);
    if (this.#closing) return;
    const message = JSON.stringify({ origin: this.#origin, event: valid });
    await Promise.all([this.#dispatch.deliver(valid), this.#publisher.publish(this.#channel, message)]);
  }

  subscribe<T extends DomainEventType>(type: T, handler: EventHandler<DomainEventOf<T>>): () => void;
  subscribe(type: "*", handler: EventHandler): () => void;
  subscribe(type: string, handler: EventHandler<never>): () => void {
    return this.#dispatch.add(type, handler as EventHandler);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#dispatch.clear();
      await this.#ready;
      await Promise.allSettled([this.#subscriber.quit(), this.#publisher.quit()]);
    })();
    return this.#closing;
  }

  async #receive(message: string): Promise<void> {
    let event: DomainEvent;
    try {
      const envelope = envelopeSchema.parse(JSON.parse(message));
      if (envelope.origin === this.#origin) return;
      event = parseDomainEvent(envelope.event);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.#onError(
        new InvalidDomainEventError(`unreadable message on ${this.#channel}: ${detail}`),
        undefined,
      );
      return;
    }
    await this.#dispatch.deliver(event);
  }
}
