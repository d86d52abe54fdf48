import { Writable } from "node:stream";
import { createLogger } from "../../app/logger.ts";
import type { RoomAccessConfig } from "../../bot/core/access.ts";
import { SlackAdapter, type SlackAdapterOptions } from "../../bot/slack/slack-adapter.ts";
import { SlackDouble, type SlackDoubleOptions } from "../slack-double/slack-double.ts";
import { type ChatHarness, createChatHarness } from "./chat-harness.ts";

export const SLACK_TOKEN = "xoxb-double-token";
export const SLACK_SECRET = "double-signing-secret";
export const SLACK_APP_TOKEN = "xapp-double-app-token";

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A logger whose records tests can read (pino levels: 40 warn, 50 error). */
export function capturingLogger() {
  const records: LogRecord[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n"))
        if (line.trim()) records.push(JSON.parse(line) as LogRecord);
      done();
    },
  });
  return { logger: createLogger({ log: { level: "debug" } }, "test", stream), records };
}

export interface SlackBot {
  double: SlackDouble;
  h: ChatHarness;
  adapter: SlackAdapter;
  logs: LogRecord[];
  /** Log records at warning level or above whose message mentions `text`. */
  warnings(text?: string): LogRecord[];
  close(): Promise<void>;
}

/**
 * The real Slack adapter (Bolt, Socket Mode or HTTP) against the Slack double, wired to a chat
 * harness core and started, with its log captured. Fast Socket Mode reconnects for tests.
 */
export async function startSlackBot(options: {
  mode: "http" | "socket";
  access: RoomAccessConfig;
  channels?: string[];
  double?: Partial<SlackDoubleOptions>;
  adapter?: Partial<SlackAdapterOptions>;
  /** Declare channels before the bot starts (id → options). */
  before?: (double: SlackDouble) => void;
  /** Register with this harness (closed by the caller) instead of a new one. */
  harness?: ChatHarness;
}): Promise<SlackBot> {
  const double = await SlackDouble.start({
    botToken: SLACK_TOKEN,
    signingSecret: SLACK_SECRET,
    appToken: SLACK_APP_TOKEN,
    ...options.double,
  });
  double.mode = options.mode;
  options.before?.(double);
  const h = options.harness ?? (await createChatHarness(options.access));
  const { logger, records } = capturingLogger();
  const adapter = new SlackAdapter({
    botToken: SLACK_TOKEN,
    mode: options.mode,
    signingSecret: SLACK_SECRET,
    appToken: SLACK_APP_TOKEN,
    port: 0,
    channels: options.channels ?? [],
    slackApiUrl: double.apiUrl,
    socketPingTimeoutMs: 2_000,
    logger,
    ...options.adapter,
  });
  h.adapters.set("slack", adapter);
  await adapter.start((e) => h.core.handle(e));
  if (options.mode === "http") double.appUrl = `http://127.0.0.1:${adapter.port}/slack/events`;
  else await double.socketMode.connected();
  return {
    double,
    h,
    adapter,
    logs: records,
    warnings: (text) => records.filter((r) => r.level >= 40 && (!text || JSON.stringify(r).includes(text))),
    async close() {
      await adapter.stop();
      if (!options.harness) await h.close();
      await double.close();
    },
  };
}
