import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, LogLevel, type Receiver } from "@slack/bolt";
import type { Logger } from "../../app/logger.ts";
import type { CardAction, ChatAdapter, InboundSink, MessageRef, Outbound } from "../core/chat-adapter.ts";
import { cardToBlocks, textToBlocks } from "./card-blocks.ts";
import { OikosSocketModeReceiver } from "./socket-mode-receiver.ts";

export interface SlackAdapterOptions {
  botToken: string;
  mode: "socket" | "http";
  /** Socket Mode: the app-level token (xapp-…). */
  appToken?: string;
  /** HTTP mode: requests are verified with it. */
  signingSecret?: string;
  /** HTTP mode: where Bolt listens (0 picks a free port). */
  port?: number;
  /** Channel ids the bot serves; empty = every channel it is in. */
  channels: readonly string[];
  /** A Web API double in tests (`…/api/`). */
  slackApiUrl?: string;
  /** A custom Bolt receiver (tests, or an embedding HTTP server). */
  receiver?: Receiver;
  logger: Logger;
}

const SLASH = "/oikos";
const GROUP_CACHE_MS = 60_000;
/**
 * Message subtypes that are a person writing: a thread reply also sent to the channel, and a
 * message with a file attached. Edits, joins, bot posts and the rest are not requests.
 */
const PLAIN_MESSAGE_SUBTYPES = new Set(["thread_broadcast", "file_share"]);

/**
 * Slack through Bolt: Socket Mode by default (no public URL), HTTP mode with signing-secret
 * verification; buttons and the `/oikos` slash command are acknowledged at once and handled
 * after, so Slack's 3-second deadline never depends on the database or the agent. Retried
 * deliveries reach the core with the same event id and are dropped there.
 */
export class SlackAdapter implements ChatAdapter {
  readonly platform = "slack";
  /** Slack shows buttons; the bot does not add reactions to its own cards. */
  readonly prefersButtons = true;
  readonly #options: SlackAdapterOptions;
  readonly #app: App;
  #selfId = "";
  #sink: InboundSink | undefined;
  #server: Server | undefined;
  readonly #pending = new Set<Promise<void>>();
  /** Members per user group, looked up at most once a minute per group. */
  readonly #groupMembers = new Map<string, { at: number; users: Set<string> }>();

  constructor(options: SlackAdapterOptions) {
    this.#options = options;
    const common = {
      token: options.botToken,
      logLevel: LogLevel.WARN,
      logger: boltLogger(options.logger),
      ...(options.slackApiUrl ? { clientOptions: { slackApiUrl: options.slackApiUrl } } : {}),
    };
    if (options.receiver) this.#app = new App({ ...common, receiver: options.receiver });
    else if (options.mode === "socket") {
      const receiver = new OikosSocketModeReceiver({
        appToken: options.appToken ?? "",
        logger: options.logger,
        ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
      });
      this.#app = new App({ ...common, receiver });
    } else this.#app = new App({ ...common, signingSecret: options.signingSecret ?? "" });
    this.#routes();
  }

  get selfId(): string {
    return this.#selfId;
  }

  /** HTTP mode: the port Bolt listens on (for tests that started it on port 0). */
  get port(): number | undefined {
    return (this.#server?.address() as AddressInfo | null)?.port;
  }

  async start(sink: InboundSink): Promise<void> {
    this.#sink = sink;
    const auth = await this.#app.client.auth.test();
    this.#selfId = String(auth.user_id ?? "");
    if (this.#options.receiver) await this.#app.start();
    else if (this.#options.mode === "http")
      this.#server = (await this.#app.start(this.#options.port ?? 3000)) as Server;
    else await this.#app.start();
  }

  /** Resolves when the work started by deliveries so far has finished. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async stop(): Promise<void> {
    await this.#app.stop();
    await this.idle();
    this.#sink = undefined;
  }

  async post(room: string, thread: string | null, message: Outbound): Promise<MessageRef> {
    const rendering = "card" in message ? cardToBlocks(message.card) : textToBlocks(message.text);
    const result = await this.#app.client.chat.postMessage({
      channel: room,
      text: rendering.text,
      blocks: rendering.blocks as never,
      ...(thread ? { thread_ts: thread } : {}),
    });
    return { platform: this.platform, room, messageId: String(result.ts), thread };
  }

  async edit(ref: MessageRef, message: Outbound): Promise<void> {
    const rendering = "card" in message ? cardToBlocks(message.card) : textToBlocks(message.text);
    await this.#app.client.chat.update({
      channel: ref.room,
      ts: ref.messageId,
      text: rendering.text,
      blocks: rendering.blocks as never,
    });
  }

  async react(ref: MessageRef, key: string): Promise<void> {
    const names: Record<string, string> = { "✅": "white_check_mark", "❌": "x", "👍": "+1" };
    await this.#app.client.reactions.add({
      channel: ref.room,
      timestamp: ref.messageId,
      name: names[key] ?? key,
    });
  }

  async isInUserGroup(user: string, group: string): Promise<boolean> {
    let members = this.#groupMembers.get(group);
    if (!members || Date.now() - members.at > GROUP_CACHE_MS) {
      const result = await this.#app.client.usergroups.users.list({ usergroup: group });
      members = { at: Date.now(), users: new Set(result.users ?? []) };
      this.#groupMembers.set(group, members);
    }
    return members.users.has(user);
  }

  #allowed(channel: string): boolean {
    return this.#options.channels.length === 0 || this.#options.channels.includes(channel);
  }

  /** Runs after the ack; the work is tracked so stop() can wait for it. */
  #later(work: () => Promise<void>): void {
    const sink = this.#sink;
    if (!sink) return;
    const run = work().catch((error: unknown) =>
      this.#options.logger.error({ err: error }, "slack: handling failed"),
    );
    this.#pending.add(run);
    void run.finally(() => this.#pending.delete(run));
  }

  #routes(): void {
    this.#app.event("message", async ({ event, body }) => {
      const e = event as {
        subtype?: string;
        bot_id?: string;
        channel: string;
        user?: string;
        text?: string;
        ts: string;
        thread_ts?: string;
      };
      if (e.subtype && !PLAIN_MESSAGE_SUBTYPES.has(e.subtype)) return;
      if (e.bot_id || !e.user || typeof e.text !== "string" || !this.#allowed(e.channel)) return;
      const eventId = (body as { event_id?: string }).event_id ?? `${e.channel}:${e.ts}`;
      const thread = e.thread_ts && e.thread_ts !== e.ts ? e.thread_ts : null;
      const text = e.text.replace(new RegExp(`<@${this.#selfId}>\\s*`, "g"), "").trim();
      const user = e.user;
      this.#later(() =>
        this.#sink!({
          kind: "message",
          platform: this.platform,
          room: e.channel,
          eventId,
          messageId: e.ts,
          user,
          thread,
          text,
        }),
      );
    });
    this.#app.event("reaction_added", async ({ event, body }) => {
      const e = event as {
        user: string;
        reaction: string;
        item: { type: string; channel: string; ts: string };
      };
      if (e.item.type !== "message" || !this.#allowed(e.item.channel)) return;
      const eventId = (body as { event_id?: string }).event_id ?? `${e.item.ts}:${e.user}:${e.reaction}`;
      this.#later(() =>
        this.#sink!({
          kind: "reaction",
          platform: this.platform,
          room: e.item.channel,
          eventId,
          user: e.user,
          target: e.item.ts,
          key: e.reaction,
        }),
      );
    });
    this.#app.action(/^oikos:/, async ({ ack, body, action }) => {
      await ack();
      const b = body as {
        user: { id: string };
        channel?: { id: string };
        container?: { message_ts?: string; channel_id?: string };
      };
      const a = action as { action_id: string; action_ts?: string };
      const room = b.channel?.id ?? b.container?.channel_id ?? "";
      if (!this.#allowed(room)) return;
      const target = b.container?.message_ts ?? "";
      const decision = a.action_id.slice("oikos:".length) as CardAction;
      const eventId = `action:${target}:${a.action_id}:${b.user.id}:${a.action_ts ?? ""}`;
      this.#later(() =>
        this.#sink!({
          kind: "button",
          platform: this.platform,
          room,
          eventId,
          user: b.user.id,
          target,
          action: decision,
        }),
      );
    });
    this.#app.command(SLASH, async ({ ack, command }) => {
      await ack();
      if (!this.#allowed(command.channel_id)) return;
      const eventId = `slash:${command.trigger_id}`;
      this.#later(() =>
        this.#sink!({
          kind: "command",
          platform: this.platform,
          room: command.channel_id,
          eventId,
          user: command.user_id,
          thread: null,
          text: `!oikos ${command.text}`.trim(),
        }),
      );
    });
  }
}

function boltLogger(logger: Logger) {
  let level = LogLevel.WARN;
  const write =
    (fn: "debug" | "info" | "warn" | "error") =>
    (...msg: unknown[]) =>
      logger[fn](
        { component: "slack-bolt" },
        msg.map((m) => (m instanceof Error ? m.message : String(m))).join(" "),
      );
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
