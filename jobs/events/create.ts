import { InProcessEventBus } from "./in-process.ts";
import type { EventBus, EventErrorReporter } from "./port.ts";
import { RedisEventBus } from "./redis.ts";

export interface CreateEventBusOptions {
  /** Set: Redis pub/sub across processes. Unset: in this process only. */
  redisUrl?: string;
  /** Redis channel prefix. Default "oikos". */
  prefix?: string;
  /** Handler failures and unreadable messages; default stderr. */
  onError?: EventErrorReporter;
}

export function createEventBus(options: CreateEventBusOptions = {}): EventBus {
  if (options.redisUrl) {
    return new RedisEventBus({
      redisUrl: options.redisUrl,
      prefix: options.prefix,
      onError: options.onError,
    });
  }
  return new InProcessEventBus({ onError: options.onError });
}
