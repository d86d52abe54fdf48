import type { App, Receiver, ReceiverEvent } from "@slack/bolt";
import { SocketModeClient } from "@slack/socket-mode";
import type { Logger } from "../../app/logger.ts";

/**
 * Socket Mode as a small Bolt receiver over @slack/socket-mode. Bolt's own SocketModeReceiver
 * does not pass `slackApiUrl` to its client (apps.connections.open always goes to slack.com), so
 * it cannot be pointed at the Slack double; this one can, and production uses the same code.
 * Every envelope is acknowledged once Bolt's listener calls ack() (ours do that first).
 */
export class OikosSocketModeReceiver implements Receiver {
  readonly #client: SocketModeClient;
  readonly #logger: Logger;
  #app: App | undefined;

  constructor(options: { appToken: string; slackApiUrl?: string; logger: Logger }) {
    this.#logger = options.logger;
    this.#client = new SocketModeClient({
      appToken: options.appToken,
      ...(options.slackApiUrl ? { clientOptions: { slackApiUrl: options.slackApiUrl } } : {}),
      logger: quietLogger(options.logger),
    });
    this.#client.on(
      "slack_event",
      async (args: {
        ack: (response?: unknown) => Promise<void>;
        body: Record<string, unknown>;
        retry_num?: number;
        retry_reason?: string;
      }) => {
        let acked = false;
        const event: ReceiverEvent = {
          body: args.body,
          ack: async (response?: unknown) => {
            if (acked) return;
            acked = true;
            await args.ack(response);
          },
          ...(args.retry_num !== undefined ? { retryNum: args.retry_num } : {}),
          ...(args.retry_reason !== undefined ? { retryReason: args.retry_reason } : {}),
        };
        try {
          await this.#app?.processEvent(event);
        } catch (error) {
          this.#logger.error({ err: error }, "slack: socket mode event failed");
          await event.ack();
        }
      },
    );
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
