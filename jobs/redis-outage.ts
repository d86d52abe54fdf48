import type { Redis } from "ioredis";

/** Where a Redis outage is told: pino-compatible. */
export interface OutageLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

// What ioredis and BullMQ raise while the server is unreachable: socket errors by code, and
// commands refused on a closed connection. These are an outage, not a failure of some job.
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
const CLOSED_MESSAGES = new Set([
  "Connection is closed.",
  "Stream isn't writeable and enableOfflineQueue options is false",
]);

export function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  return (typeof code === "string" && CONNECTION_CODES.has(code)) || CLOSED_MESSAGES.has(error.message);
}

/**
 * One Redis outage, one warning: ioredis reconnects on its own (every command waits for it) and
 * raises an error on every attempt, which used to be one error-level line with a stack trace per
 * attempt and per connection. The first is said once; the return of the server once more.
 */
export class RedisOutage {
  readonly #logger: OutageLogger | undefined;
  readonly #what: string;
  #since: number | null = null;

  constructor(what: string, logger: OutageLogger | undefined) {
    this.#what = what;
    this.#logger = logger;
  }

  /** Whether the outage took `error` (a connection error): otherwise the caller reports it. */
  error(error: unknown): boolean {
    if (!this.#logger || !isRedisConnectionError(error)) return false;
    if (this.#since === null) {
      this.#since = Date.now();
      this.#logger.warn(
        { err: { message: (error as Error).message, code: (error as { code?: unknown }).code } },
        `${this.#what}: Redis is unreachable; reconnecting (waiting work stays queued)`,
      );
    }
    return true;
  }

  /** Reports the outage's end when `connection` is ready again. */
  watch(connection: Redis): void {
    connection.on("ready", () => {
      if (this.#since === null) return;
      this.#logger?.info({ downMs: Date.now() - this.#since }, `${this.#what}: Redis is reachable again`);
      this.#since = null;
    });
  }
}
