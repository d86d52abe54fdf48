import type { App, Receiver, ReceiverEvent } from "@slack/bolt";
import { SocketModeClient } from "@slack/socket-mode";
import type { Logger } from "../../base/logger.ts";

/** Why Slack closes a Socket Mode connection (docs.slack.dev, Socket Mode: "disconnect" messages). */
export type DisconnectReason = "refresh_requested" | "warning" | "link_disabled" | "too_many_websockets";

/**
 * Socket Mode as a small Bolt receiver over @slack/socket-mode. Bolt's own SocketModeReceiver
 * does not pass `slackApiUrl` to its client (apps.connections.open always goes to slack.com), so
 * it cannot be pointed at the Slack double; this one can, and production uses the same code.
 *
 * - Every envelope is acknowledged: by the listener (ours ack first), else right after Bolt has
 *   processed it — an interactive payload no listener wanted must still be acked, or Slack
 *   shows its user an error and delivers it again.
 * - `disconnect` messages: the client reconnects (a new apps.connections.open) on
 *   refresh_requested, warning and too_many_websockets; on link_disabled (Socket Mode was turned
 *   off in the app's settings) reconnecting cannot help, so it stops and says what to change.
 *   Envelopes Slack redelivers after a reconnect carry the same payload; the core drops what it
 *   has handled (durable event ledger), so nothing is handled twice.
 */
export class OikosSocketModeReceiver implements Receiver {
  readonly #client: SocketModeClient;
  readonly #logger: Logger;
  #app: App | undefined;

  constructor(options: {
    appToken: string;
    slackApiUrl?: string;
    logger: Logger;
    clientPingTimeoutMs?: number;
  }) {
    this.#logger = options.logger;
    this.#client = new SocketModeClient({
      appToken: options.appToken,
      ...(options.slackApiUrl ? { clientOptions: { slackApiUrl: options.slackApiUrl } } : {}),
      ...(options.clientPingTimeoutMs ? { clientPingTimeout: options.clientPingTimeoutMs } : {}),
      logger: quietLogger(options.logger),
    });
    this.#client.on("slack_event", (args: SocketEnvelope) => this.#deliver(args));
    this.#client.on("ws_message", (data: unknown) => this.#watchDisconnect(data));
    this.#client.on("reconnecting", () => this.#logger.info("slack: Socket Mode reconnecting"));
    this.#client.on("connected", () => this.#logger.debug("slack: Socket Mode connected"));
  }

  init(app: App): void {
    this.#app = app;
  }

  async start(): Promise<unknown> {
    return this.#client.start();
  }

  async stop(): Promise<unknown> {
    return this.#client.disconnect();
  }

  async #deliver(args: SocketEnvelope): Promise<void> {
    let acked = false;
    const ack = async (response?: unknown) => {
      if (acked) return;
      acked = true;
      await args.ack(response);
    };
    const event: ReceiverEvent = {
      body: args.body,
      ack,
      ...(args.retry_num !== undefined ? { retryNum: args.retry_num } : {}),
      ...(args.retry_reason !== undefined ? { retryReason: args.retry_reason } : {}),
    };
    try {
      await this.#app?.processEvent(event);
    } catch (error) {
      this.#logger.error({ err: error, envelope: args.type }, "slack: socket mode event failed");
    }
    if (!acked) {
      this.#logger.debug(
        { envelope: args.type },
        "slack: acknowledging an envelope no listener acknowledged",
      );
      await ack().catch((error: unknown) =>
        this.#logger.warn({ err: error }, "slack: could not acknowledge a Socket Mode envelope"),
      );
    }
  }

  #watchDisconnect(data: unknown): void {
    if (typeof data !== "string" || !data.includes('"disconnect"')) return;
    let message: { type?: string; reason?: string };
    try {
      message = JSON.parse(data) as { type?: string; reason?: string };
    } catch {
      return;
    }
    if (message.type !== "disconnect") return;
    const reason = message.reason as DisconnectReason | undefined;
    switch (reason) {
      case "link_disabled":
        this.#logger.error(
          { reason },
          "slack: Socket Mode was turned off for this app (link_disabled); not reconnecting. Turn Socket Mode on in the app's settings, or run with SLACK_MODE=http, and restart oikos.",
        );
        void this.#client.disconnect();
        return;
      case "warning":
      case "too_many_websockets":
        this.#logger.warn({ reason }, "slack: Slack is closing the Socket Mode connection; reconnecting");
        return;
      default:
        this.#logger.info({ reason }, "slack: Slack asked for a new Socket Mode connection; reconnecting");
    }
  }
}

interface SocketEnvelope {
  ack: (response?: unknown) => Promise<void>;
  type: string;
  body: Record<string, unknown>;
  retry_num?: number;
  retry_reason?: string;
}

function quietLogger(logger: Logger) {
  const write =
    (fn: "debug" | "info" | "warn" | "error") =>
    (...msg: unknown[]) =>
      logger[fn](
        { component: "slack-socket-mode" },
        msg.map((m) => (m instanceof Error ? m.message : String(m))).join(" "),
      );
  let level = "warn";
  return {
    debug: write("debug"),
    info: write("debug"),
    warn: write("warn"),
    error: write("error"),
    setLevel: (l: string) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  } as never;
}
