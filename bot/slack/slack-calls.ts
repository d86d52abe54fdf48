import {
  type WebAPICallResult,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  type WebClient,
} from "@slack/web-api";
import type { Logger } from "../../base/logger.ts";
import { SlackCallError } from "./slack-errors.ts";

export type RateLimitMode = "wait" | "throw";

export interface SlackCallsOptions {
  logger: Logger;
  /** Longest one call waits out rate limits before it fails (default 2 minutes). */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Every Web API call the adapter makes, with Slack's errors turned into {@link SlackCallError}
 * by name and rate limits handled here rather than in the SDK: the WebClient is built with
 * `rejectRateLimitedCalls`, because its own handling pauses its whole request queue on a 429, so
 * one rate-limited `chat.update` held back every post and edit for up to Retry-After (and its
 * retry policy tried for half an hour). Here a 429 holds back only calls with the same key — a
 * method and what it acts on (`chat.update` of one message, `chat.postMessage` to one channel)
 * — until Retry-After has passed; a warning names the method and the wait.
 */
export class SlackCalls {
  readonly #client: WebClient;
  readonly #logger: Logger;
  readonly #maxWaitMs: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #now: () => number;
  /** Per key: no call before this time (epoch ms), from a Retry-After. */
  readonly #notBefore = new Map<string, number>();

  constructor(client: WebClient, options: SlackCallsOptions) {
    this.#client = client;
    this.#logger = options.logger;
    this.#maxWaitMs = options.maxWaitMs ?? 120_000;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#now = options.now ?? Date.now;
  }

  /**
   * Calls `method`. `key` scopes a rate limit (default: the method). With `onRateLimit: "wait"`
   * the call waits out Retry-After (up to maxWaitMs in all) and tries again; with "throw" it
   * fails at once with a `ratelimited` SlackCallError carrying the wait, for callers that
   * defer the work themselves.
   */
  async call(
    method: string,
    args: Record<string, unknown>,
    options: { key?: string; onRateLimit?: RateLimitMode } = {},
  ): Promise<WebAPICallResult> {
    const key = options.key ?? method;
    const mode = options.onRateLimit ?? "wait";
    const deadline = this.#now() + this.#maxWaitMs;
    const channel = typeof args.channel === "string" ? args.channel : undefined;
    for (;;) {
      const wait = (this.#notBefore.get(key) ?? 0) - this.#now();
      if (wait > 0) {
        if (mode === "throw" || this.#now() + wait > deadline) {
          throw new SlackCallError({
            method,
            slackError: "ratelimited",
            retryAfterS: Math.ceil(wait / 1000),
          });
        }
        await this.#sleep(wait);
      }
      try {
        const result = await this.#client.apiCall(method, args);
        if ((this.#notBefore.get(key) ?? 0) <= this.#now()) this.#notBefore.delete(key);
        return result;
      } catch (error) {
        if (error instanceof WebAPIRateLimitedError) {
          const until = this.#now() + error.retryAfter * 1000;
          this.#notBefore.set(key, Math.max(this.#notBefore.get(key) ?? 0, until));
          this.#logger.warn(
            { method, key, retryAfterS: error.retryAfter },
            `slack: ${method} rate-limited; holding back ${key} for ${error.retryAfter} s (other calls go on)`,
          );
          if (mode === "throw" || until > deadline) {
            throw new SlackCallError({
              method,
              slackError: "ratelimited",
              retryAfterS: error.retryAfter,
              cause: error,
            });
          }
          continue;
        }
        throw toSlackCallError(method, channel, error);
      }
    }
  }
}

function toSlackCallError(method: string, channel: string | undefined, error: unknown): SlackCallError {
  if (error instanceof WebAPIPlatformError) {
    const data = error.data as { error: string; needed?: string };
    return new SlackCallError({
      method,
      slackError: data.error,
      ...(channel ? { channel } : {}),
      ...(data.needed ? { needed: data.needed } : {}),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SlackCallError({ method, slackError: `request_failed: ${message}`, cause: error });
}
