import type { OutageLogger } from "../redis-outage.ts";
import { InProcessEventBus } from "./in-process.ts";
import type { EventBus, EventErrorReporter } from "./port.ts";

export interface CreateEventBusOptions {
  /** Set: Redis pub/sub across processes. Unset: in this process only. */
  redisUrl?: string;
  /** Redis channel prefix. Default "oikos". */
  prefix?: string;
  /** Handler failures and unreadable messages; default stderr. */
  onError?: EventErrorReporter;
  /** Redis only: where an outage is told (once, and its end). */
  logger?: OutageLogger;
}

/** ioredis is loaded only when a Redis URL asks for it. */
export async function createEventBus(options: CreateEventBusOptions = {}): Promise<EventBus> {
  if (options.redisUrl) {
    const { RedisEventBus } = await import("./redis.ts");
    return new RedisEventBus({
      redisUrl: options.redisUrl,
      prefix: options.prefix,
      onError: options.onError,
      ...(options.logger ? { logger: options.logger } : {}),
    });
  }
  return new InProcessEventBus({ onError: options.onError });
}
