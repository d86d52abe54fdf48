import { eventEnvelope, slackSignature } from "./payloads.ts";
import type { SocketModeServer } from "./socket-mode-server.ts";

export interface Delivery {
  status: number;
  body: string;
}

/** Slack gives an app 3 seconds to answer a request. */
const DEADLINE_MS = 3_000;

/**
 * How the double's payloads reach the app. HTTP mode (docs.slack.dev "Events API": "Responding
 * to events", "Retries"): a signed POST; an event the app does not answer with 2xx within 3 s
 * is sent again with X-Slack-Retry-Num / X-Slack-Retry-Reason (http_timeout, http_error) after
 * each of retryDelaysMs; interactive payloads and slash commands are not retried. Socket Mode:
 * envelopes on the WebSocket (retries are the socket server's).
 */
export class Deliveries {
  mode: "http" | "socket" = "http";
  appUrl = "";
  readonly #signingSecret: string;
  readonly #socket: SocketModeServer;
  readonly #retryDelaysMs: number[];
  readonly #botUserId: string;
  readonly #eventTime: () => number;
  readonly #background = new Set<Promise<unknown>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(options: {
    signingSecret: string;
    socketMode: SocketModeServer;
    retryDelaysMs: number[];
    botUserId: string;
    eventTime: () => number;
  }) {
    this.#signingSecret = options.signingSecret;
    this.#socket = options.socketMode;
    this.#retryDelaysMs = options.retryDelaysMs;
    this.#botUserId = options.botUserId;
    this.#eventTime = options.eventTime;
  }

  /** An Events API callback; with `retryNum` exactly that retry (no automatic ones). */
  async event(event: Record<string, unknown>, eventId: string, retryNum?: number): Promise<Delivery> {
    const envelope = eventEnvelope(event, eventId, this.#eventTime(), this.#botUserId);
    if (this.mode === "socket") {
      const retry = retryNum !== undefined ? { attempt: retryNum, reason: "timeout" } : undefined;
      return acked(await this.#socket.send("events_api", envelope, retry));
    }
    const body = JSON.stringify(envelope);
    const headers = { "content-type": "application/json" };
    if (retryNum !== undefined) return this.#post(body, retryHeaders(headers, retryNum, "http_timeout"));
    const first = await this.#post(body, headers);
    if (!ok(first)) this.#retryLater(body, headers, first, 0);
    return first;
  }

  async interactive(payload: Record<string, unknown>): Promise<Delivery> {
    if (this.mode === "socket") return acked(await this.#socket.send("interactive", payload));
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return this.#post(body, { "content-type": "application/x-www-form-urlencoded" });
  }

  async slashCommand(params: Record<string, string>): Promise<Delivery> {
    if (this.mode === "socket") return acked(await this.#socket.send("slash_commands", params));
    return this.#post(new URLSearchParams(params).toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
  }

  /** Work that nobody awaits (echoes of the bot's own actions); failures are Slack's problem. */
  background(work: () => Promise<unknown>): void {
    if (this.#closed) return;
    const run = work().catch(() => undefined);
    this.#background.add(run);
    void run.finally(() => this.#background.delete(run));
  }

  async settle(): Promise<void> {
    while (this.#background.size > 0) await Promise.allSettled([...this.#background]);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #retryLater(body: string, headers: Record<string, string>, last: Delivery, attempt: number): void {
    const delay = this.#retryDelaysMs[attempt];
    if (delay === undefined || this.#closed) return;
    const reason = last.status === 0 ? "http_timeout" : "http_error";
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.background(async () => {
        const next = await this.#post(body, retryHeaders(headers, attempt + 1, reason));
        if (!ok(next)) this.#retryLater(body, headers, next, attempt + 1);
      });
    }, delay);
    timer.unref?.();
    this.#timers.add(timer);
  }

  async #post(body: string, headers: Record<string, string>): Promise<Delivery> {
    if (!this.appUrl) throw new Error("set appUrl to the app's request URL first");
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = slackSignature(this.#signingSecret, timestamp, body);
    try {
      const response = await fetch(this.appUrl, {
        method: "POST",
        headers: { ...headers, "x-slack-request-timestamp": timestamp, "x-slack-signature": signature },
        body,
        signal: AbortSignal.timeout(DEADLINE_MS),
      });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      return { status: 0, body: error instanceof Error ? error.message : String(error) };
    }
  }
}

function retryHeaders(headers: Record<string, string>, num: number, reason: string): Record<string, string> {
  return { ...headers, "x-slack-retry-num": String(num), "x-slack-retry-reason": reason };
}

function ok(delivery: Delivery): boolean {
  return delivery.status >= 200 && delivery.status < 300;
}

/** A Socket Mode ack as a delivery result (the WebSocket has no status code: acked = 200). */
function acked(payload: unknown): Delivery {
  return { status: 200, body: JSON.stringify(payload ?? {}) };
}
