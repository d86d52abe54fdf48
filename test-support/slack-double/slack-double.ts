import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Deliveries, type Delivery } from "./deliveries.ts";
import { displayed, encodeTyped, richTextBlock } from "./encode-text.ts";
import {
  blockActionsPayload,
  botMessageEvent,
  clientMsgId,
  messageChangedEvent,
  newEventId,
  reactionAddedEvent,
  slashCommandParams,
  userMessageEvent,
} from "./payloads.ts";
import { ResponseUrls } from "./response-urls.ts";
import { type SocketModeOptions, SocketModeServer } from "./socket-mode-server.ts";
import { blockTexts, type Echo, type Fault, WebApi } from "./web-api.ts";
import {
  DEFAULT_SCOPES,
  DEFAULT_SUBSCRIPTIONS,
  EVENT_SCOPES,
  type SlackChannel,
  type SlackMessage,
  Workspace,
} from "./workspace.ts";

export type { Delivery } from "./deliveries.ts";
export type { SlackViolation } from "./web-api.ts";
export type { SlackMessage } from "./workspace.ts";

export interface SlackDoubleOptions {
  botToken: string;
  signingSecret: string;
  /** Set to offer Socket Mode (apps.connections.open with this xapp- token). */
  appToken?: string;
  /** Scopes the bot token was granted (default: everything docs/slack.md's setup lists). */
  scopes?: string[];
  /** Bot events the app subscribed to (default: message.channels, message.groups, reaction_added). */
  subscriptions?: string[];
  socketMode?: SocketModeOptions;
  /** HTTP mode: delays of Slack's retries of an event the app did not take within 3 s (Slack: 0, 1 min, 5 min). */
  httpRetryDelaysMs?: number[];
  /** Deliver the bot's own posts, edits and reactions back to it as events, as Slack does (default true). */
  echo?: boolean;
  /** How long a response_url works (Slack: 30 minutes). */
  responseUrlLifetimeMs?: number;
}

/**
 * A Slack double for tests, as strict as Slack where oikos meets it (a shared protocol double,
 * not a mock):
 * - Web API (web-api.ts): scopes, channel membership and state, Slack's error names, Block Kit
 *   and length limits, escaping checks, scripted failures and 429s with Retry-After.
 * - Events as Slack sends them: text typed by a person is encoded and auto-linked
 *   (encode-text.ts) with its rich_text block, client_msg_id and event_ts; a mention also comes
 *   as `app_mention` when subscribed; the bot's own posts, edits and reactions come back to it;
 *   events only for subscribed types, granted scopes and channels the bot is in.
 * - Delivery (deliveries.ts): signed HTTP requests with Slack's retries, or Socket Mode
 *   envelopes (socket-mode-server.ts) with acks, redelivery, pings and `disconnect`.
 * - Interactivity: clicks on buttons a message shows now, slash commands, any interactive
 *   payload; response_urls that take 5 answers (response-urls.ts).
 */
export class SlackDouble {
  readonly workspace: Workspace;
  readonly botUserId = "UOIKOSBOT";
  readonly botId = "BOIKOS";
  readonly botName = "oikos";
  readonly calls: string[] = [];
  /** Socket Mode: the app connects here (after apps.connections.open) and acks envelopes. */
  readonly socketMode: SocketModeServer;
  readonly #api: WebApi;
  readonly #responses: ResponseUrls;
  readonly #deliveries: Deliveries;
  readonly #server: Server;
  readonly #botToken: string;
  readonly #appToken: string | undefined;
  readonly #echo: boolean;
  #url = "";
  subscriptions: Set<string>;

  private constructor(options: SlackDoubleOptions) {
    this.#botToken = options.botToken;
    this.#appToken = options.appToken;
    this.#echo = options.echo ?? true;
    this.workspace = new Workspace(this.botUserId, this.botName);
    this.socketMode = new SocketModeServer(options.socketMode);
    this.subscriptions = new Set(options.subscriptions ?? DEFAULT_SUBSCRIPTIONS);
    this.#api = new WebApi(this.workspace, this.botId, options.scopes ?? DEFAULT_SCOPES, (echo) =>
      this.#onEcho(echo),
    );
    this.#responses = new ResponseUrls(options.responseUrlLifetimeMs);
    this.#deliveries = new Deliveries({
      signingSecret: options.signingSecret,
      socketMode: this.socketMode,
      retryDelaysMs: options.httpRetryDelaysMs ?? [0, 60_000, 300_000],
      botUserId: this.botUserId,
      eventTime: () => this.workspace.eventTime,
    });
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => reply(res, 500, { ok: false, error: String(error) }));
    });
    this.#server.on("upgrade", (req, socket) => {
      if ((req.url ?? "").startsWith("/socket")) this.socketMode.upgrade(req, socket);
      else socket.destroy();
    });
  }

  static async start(options: SlackDoubleOptions): Promise<SlackDouble> {
    const double = new SlackDouble(options);
    await new Promise<void>((resolve) => double.#server.listen(0, "127.0.0.1", resolve));
    double.#url = `http://127.0.0.1:${(double.#server.address() as AddressInfo).port}`;
    return double;
  }

  /** Base URL for the app's WebClient (`clientOptions.slackApiUrl`). */
  get apiUrl(): string {
    return `${this.#url}/api/`;
  }

  /** How events reach the app: "http" (signed POSTs to appUrl) or "socket" (Socket Mode). */
  get mode(): "http" | "socket" {
    return this.#deliveries.mode;
  }
  set mode(mode: "http" | "socket") {
    this.#deliveries.mode = mode;
  }

  /** Where the app listens for Slack's requests (HTTP mode). */
  get appUrl(): string {
    return this.#deliveries.appUrl;
  }
  set appUrl(url: string) {
    this.#deliveries.appUrl = url;
  }

  get messages(): SlackMessage[] {
    return this.workspace.messages;
  }
  get reactions() {
    return this.workspace.reactions;
  }
  get userGroups(): Map<string, string[]> {
    return this.workspace.userGroups;
  }
  /** Payloads Slack would refuse or show wrongly (Block Kit, unescaped text, response payloads). */
  get violations() {
    return [
      ...this.#api.violations,
      ...this.#responses.problems.map((p) => ({ method: "response_url", issues: [p], args: null })),
    ];
  }
  /** Mentions, broadcasts and channel links the bot's messages formed (with the text that formed each). */
  get mentions() {
    return this.#api.mentions;
  }

  /** The @here / @channel / @everyone the bot's messages formed (none should). */
  broadcasts() {
    return this.#api.mentions.filter((m) => /^<!(here|channel|everyone)\b/.test(m.mention));
  }
  /** Answers the app sent to response_urls. */
  get responses() {
    return this.#responses.responses;
  }
  /** chat.postEphemeral messages. */
  get ephemeral() {
    return this.#api.ephemeral;
  }
  get scopes(): Set<string> {
    return this.#api.scopes;
  }
  set scopes(scopes: Set<string>) {
    this.#api.scopes = scopes;
  }

  async close(): Promise<void> {
    this.#deliveries.close();
    this.socketMode.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Waits for the echo deliveries started so far. */
  settle(): Promise<void> {
    return this.#deliveries.settle();
  }

  byBot(): SlackMessage[] {
    return this.messages.filter((m) => m.user === this.botUserId && !m.deleted);
  }

  message(channel: string, ts: string): SlackMessage | undefined {
    return this.workspace.message(channel, ts);
  }

  /** The bot's messages in a thread (replies to `root`), oldest first. */
  botThread(channel: string, root: string): SlackMessage[] {
    return this.byBot().filter((m) => m.channel === channel && m.thread_ts === root);
  }

  /** What a Slack client shows of a message: its blocks' text (else its text), decoded. */
  shown(message: SlackMessage): string {
    const texts = message.blocks?.flatMap((b) => blockTexts(b).map((t) => t.text)) ?? [message.text];
    return texts.map(displayed).join("\n");
  }

  addChannel(id: string, options: Parameters<Workspace["addChannel"]>[1] = {}): SlackChannel {
    return this.workspace.addChannel(id, options);
  }

  /** A person with a display name: typing @name mentions them. */
  addUser(name: string, id: string): void {
    this.workspace.users.set(name, id);
  }

  // --- scripted failures ------------------------------------------------------------------------

  /** The next `times` matching calls of `method` get HTTP 429 with Retry-After. */
  rateLimit(
    method: string,
    retryAfterS: number,
    options: { times?: number; match?: Fault["match"] } = {},
  ): void {
    this.#api.faults.push({
      method,
      times: options.times ?? 1,
      reply: { retryAfterS },
      ...(options.match ? { match: options.match } : {}),
    });
  }

  /** The next `times` matching calls of `method` fail with Slack's error `error`. */
  fail(
    method: string,
    error: string,
    options: { times?: number; match?: Fault["match"]; extra?: Record<string, unknown> } = {},
  ): void {
    this.#api.faults.push({
      method,
      times: options.times ?? 1,
      reply: { error, ...(options.extra ? { extra: options.extra } : {}) },
      ...(options.match ? { match: options.match } : {}),
    });
  }

  // --- Slack → app ------------------------------------------------------------------------------

  /**
   * A person types `typed` in a channel; the app gets the `message` event with Slack's encoded
   * text (and `app_mention` too, when subscribed and the bot is mentioned).
   */
  async userMessage(
    user: string,
    channel: string,
    typed: string,
    options: { threadTs?: string; subtype?: string } = {},
  ): Promise<{ ts: string; text: string; eventId: string; delivery: Delivery }> {
    const room = this.workspace.channelForUser(channel, user);
    const directory = {
      users: this.workspace.users,
      channels: new Map([...this.workspace.channels.values()].map((c) => [c.name, c.id])),
    };
    const { text, elements } = encodeTyped(typed, directory);
    const ts = this.workspace.nextTs();
    const blocks = [richTextBlock(elements, randomBytes(3).toString("base64url"))];
    this.messages.push({
      channel: room.id,
      ts,
      user,
      text,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      history: [{ text }],
    });
    const common = {
      channel: room.id,
      channelType: room.isPrivate ? ("group" as const) : ("channel" as const),
      user,
      text,
      ts,
      blocks,
      clientMsgId: clientMsgId(),
      ...(options.threadTs ? { threadTs: options.threadTs } : {}),
      ...(options.subtype ? { subtype: options.subtype } : {}),
    };
    const eventId = newEventId();
    const delivery = await this.#event(
      userMessageEvent({ type: "message", ...common }),
      eventId,
      room.isPrivate ? "message.groups" : "message.channels",
      room,
    );
    if (text.includes(`<@${this.botUserId}>`)) {
      await this.#event(
        userMessageEvent({ type: "app_mention", ...common }),
        newEventId(),
        "app_mention",
        room,
      );
    }
    return { ts, text, eventId, delivery };
  }

  /**
   * `user` edits their message `ts` to `typed`: the app gets `message_changed` (docs.slack.dev,
   * events "message_changed": the new message with `edited`, the previous one, hidden).
   */
  async userEdit(user: string, channel: string, ts: string, typed: string): Promise<Delivery> {
    const room = this.workspace.channelForUser(channel, user);
    const message = this.workspace.message(room.id, ts);
    if (!message || message.user !== user) throw new Error(`no message ${ts} of ${user} in ${channel}`);
    const directory = {
      users: this.workspace.users,
      channels: new Map([...this.workspace.channels.values()].map((c) => [c.name, c.id])),
    };
    const { text, elements } = encodeTyped(typed, directory);
    const previous = message.text;
    message.text = text;
    message.history?.push({ text });
    const channelType = room.isPrivate ? ("group" as const) : ("channel" as const);
    const common = {
      channel: room.id,
      channelType,
      user,
      ts,
      clientMsgId: clientMsgId(),
      ...(message.thread_ts ? { threadTs: message.thread_ts } : {}),
    };
    const edited = userMessageEvent({
      type: "message",
      ...common,
      text,
      blocks: [richTextBlock(elements, randomBytes(3).toString("base64url"))],
    });
    const event = messageChangedEvent({
      channel: room.id,
      channelType,
      message: { ...edited, edited: { user, ts: this.workspace.nextTs() } },
      previous: userMessageEvent({ type: "message", ...common, text: previous, blocks: [] }),
      eventTs: this.workspace.nextTs(),
    });
    return this.#event(event, newEventId(), room.isPrivate ? "message.groups" : "message.channels", room);
  }

  async userReaction(user: string, channel: string, ts: string, name: string): Promise<Delivery> {
    const room = this.workspace.channelForUser(channel, user);
    this.reactions.push({ channel, ts, name, user });
    const event = reactionAddedEvent({
      user,
      reaction: name,
      channel,
      ts,
      itemUser: this.message(channel, ts)?.user,
      eventTs: this.workspace.nextTs(),
    });
    return this.#event(event, newEventId(), "reaction_added", room);
  }

  /** An Events API callback as is; `retryNum` marks it a retry of the same event id, as Slack does. */
  deliverEvent(event: Record<string, unknown>, eventId: string, retryNum?: number): Promise<Delivery> {
    return this.#deliveries.event(event, eventId, retryNum);
  }

  /** A click on a button the message shows now; a button that is gone cannot be clicked. */
  async click(user: string, channel: string, ts: string, actionId: string): Promise<Delivery> {
    const message = this.message(channel, ts);
    if (!message) throw new Error(`no message ${ts}`);
    const button = (message.blocks ?? [])
      .flatMap((b) => (b.type === "actions" ? b.elements.map((e) => ({ block: b, e })) : []))
      .find((x) => x.e.action_id === actionId);
    if (!button)
      throw new Error(`message ${ts} has no button ${actionId} (buttons are replaced once decided)`);
    const payload = blockActionsPayload({
      user,
      channel,
      channelName: this.workspace.channels.get(channel)?.name ?? channel.toLowerCase(),
      message: {
        ts,
        text: message.text,
        user: message.user,
        ...(message.blocks ? { blocks: message.blocks } : {}),
        ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      },
      actionId,
      blockId: button.block.block_id ?? "b",
      value: button.e.value,
      actionTs: this.workspace.nextTs(),
      responseUrl: this.#responses.issue(this.#url, "block_actions", user, channel),
      buttonText: button.e.text.text,
    });
    return this.#deliveries.interactive(payload);
  }

  /** Any interactive payload (a shortcut, another app's button, a modal) as Slack sends it. */
  interact(payload: Record<string, unknown>): Promise<Delivery> {
    return this.#deliveries.interactive(payload);
  }

  /** A slash command typed in `channel` (D… for a direct message). */
  async slashCommand(user: string, channel: string, command: string, text: string): Promise<Delivery> {
    const name = channel.startsWith("D")
      ? "directmessage"
      : (this.workspace.channels.get(channel)?.name ?? channel.toLowerCase());
    const params = slashCommandParams({
      user,
      channel,
      channelName: name,
      command,
      text: encodeTyped(text, { users: this.workspace.users, channels: new Map() }).text,
      responseUrl: this.#responses.issue(this.#url, "slash_command", user, channel),
    });
    return this.#deliveries.slashCommand(params);
  }

  /** Delivers an event when Slack would: subscribed, scope granted, the bot in the channel. */
  async #event(
    event: Record<string, unknown>,
    eventId: string,
    subscription: string,
    room: SlackChannel,
  ): Promise<Delivery> {
    const scope = EVENT_SCOPES[subscription];
    if (
      !this.subscriptions.has(subscription) ||
      (scope && !this.scopes.has(scope)) ||
      !room.members.has(this.botUserId)
    ) {
      return {
        status: 0,
        body: "not delivered: not subscribed, scope missing or the bot is not in the channel",
      };
    }
    return this.#deliveries.event(event, eventId);
  }

  #onEcho(echo: Echo): void {
    if (!this.#echo) return;
    const channelOf = (id: string) => this.workspace.channels.get(id);
    if (echo.kind === "reacted") {
      const room = channelOf(echo.channel);
      if (!room) return;
      const event = reactionAddedEvent({
        user: this.botUserId,
        reaction: echo.name,
        channel: echo.channel,
        ts: echo.ts,
        itemUser: this.botUserId,
        eventTs: this.workspace.nextTs(),
      });
      this.#deliveries.background(() => this.#event(event, newEventId(), "reaction_added", room));
      return;
    }
    const m = echo.message;
    const room = channelOf(m.channel);
    if (!room) return;
    const channelType = room.isPrivate ? ("group" as const) : ("channel" as const);
    const posted = botMessageEvent({
      channel: m.channel,
      channelType,
      botUserId: this.botUserId,
      botId: this.botId,
      text: m.text,
      ...(m.blocks ? { blocks: m.blocks } : {}),
      ts: m.ts,
      ...(m.thread_ts ? { threadTs: m.thread_ts } : {}),
    });
    const event =
      echo.kind === "posted"
        ? posted
        : messageChangedEvent({
            channel: m.channel,
            channelType,
            message: { ...posted, edited: { user: this.botUserId, ts: this.workspace.nextTs() } },
            previous: {
              ...posted,
              text: echo.previous.text,
              ...(echo.previous.blocks ? { blocks: echo.previous.blocks } : {}),
            },
            eventTs: this.workspace.nextTs(),
          });
    const subscription = room.isPrivate ? "message.groups" : "message.channels";
    this.#deliveries.background(() => this.#event(event, newEventId(), subscription, room));
  }

  // --- app → Slack (Web API, response_url) -----------------------------------------------------

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.#url);
    const raw = await readBody(req);
    if (url.pathname.startsWith("/response/")) {
      const answered = this.#responses.answer(url.pathname, safeJson(raw));
      const r = answered.response;
      if (r && r.responseType === "in_channel") {
        const ts = this.workspace.nextTs();
        this.messages.push({
          channel: r.channel,
          ts,
          user: this.botUserId,
          text: r.text,
          ...(r.blocks ? { blocks: r.blocks } : {}),
          history: [{ text: r.text }],
        });
      }
      return reply(res, answered.status, answered.body);
    }
    const method = url.pathname.replace(/^\/api\//, "");
    this.calls.push(method);
    const args = parseArgs(raw, req.headers["content-type"] ?? "");
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? (args.token as string | undefined);
    if (method === "apps.connections.open") {
      if (!this.#appToken || token !== this.#appToken)
        return reply(res, 200, { ok: false, error: "invalid_auth" });
      const ws = this.#url.replace(/^http/, "ws");
      return reply(res, 200, { ok: true, url: `${ws}/socket?ticket=${randomBytes(6).toString("hex")}` });
    }
    if (token !== this.#botToken) return reply(res, 200, { ok: false, error: "invalid_auth" });
    const answer = this.#api.handle(method, args);
    return reply(res, answer.status, answer.body, answer.headers);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The Web API takes form-encoded arguments (nested values as JSON strings) or a JSON body. */
function parseArgs(text: string, contentType: string): Record<string, unknown> {
  if (!text) return {};
  if (contentType.includes("application/json")) return (safeJson(text) ?? {}) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text))
    args[key] = /^[[{]/.test(value) ? (safeJson(value) ?? value) : value;
  return args;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
