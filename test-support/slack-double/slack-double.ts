import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Block, postMessageSchema, updateMessageSchema } from "./block-kit-schemas.ts";
import { blockActionsPayload, eventEnvelope, slackSignature, slashCommandParams } from "./payloads.ts";
import { SocketModeServer } from "./socket-mode-server.ts";

export interface SlackMessage {
  channel: string;
  ts: string;
  user: string;
  text: string;
  blocks?: Block[];
  thread_ts?: string;
  /** Every version of the message, oldest first (chat.update appends). */
  history: { text: string; blocks?: Block[] }[];
}

export interface SlackDoubleOptions {
  botToken: string;
  signingSecret: string;
  /** Set to offer Socket Mode (apps.connections.open with this xapp- token). */
  appToken?: string;
}

export interface SlackViolation {
  method: string;
  issues: string[];
  args: unknown;
}

export interface Delivery {
  status: number;
  body: string;
}

/**
 * A Slack double for tests (a shared protocol double, not a mock): the Web API methods oikos
 * calls (auth.test, chat.postMessage, chat.update, reactions.add, conversations.info), with
 * Block Kit payloads checked against block-kit-schemas.ts, and the other direction, the way
 * Slack reaches an app in HTTP mode: signed Events API callbacks (with retries carrying
 * X-Slack-Retry-Num), block_actions for button clicks (only on buttons the message currently
 * shows), and slash commands.
 */
export class SlackDouble {
  readonly messages: SlackMessage[] = [];
  readonly violations: SlackViolation[] = [];
  readonly reactions: { channel: string; ts: string; name: string; user: string }[] = [];
  readonly calls: string[] = [];
  /** User groups (S…) and their members, for usergroups.users.list. */
  readonly userGroups = new Map<string, string[]>();
  readonly botUserId = "UOIKOSBOT";
  readonly botId = "BOIKOS";
  readonly #server: Server;
  readonly #botToken: string;
  readonly #appToken: string | undefined;
  /** Socket Mode: the app connects here (after apps.connections.open) and acks envelopes. */
  readonly socketMode = new SocketModeServer();
  /** How events reach the app: "http" (signed POSTs to appUrl) or "socket" (Socket Mode). */
  mode: "http" | "socket" = "http";
  readonly #signingSecret: string;
  #url = "";
  #clock = 1_700_000_000;
  #seq = 0;
  /** Where the app listens for Slack's requests (HTTP mode). */
  appUrl = "";

  private constructor(options: SlackDoubleOptions) {
    this.#botToken = options.botToken;
    this.#appToken = options.appToken;
    this.#signingSecret = options.signingSecret;
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

  async close(): Promise<void> {
    this.socketMode.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  byBot(): SlackMessage[] {
    return this.messages.filter((m) => m.user === this.botUserId);
  }

  message(channel: string, ts: string): SlackMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts);
  }

  // --- Slack → app ----------------------------------------------------------------------------

  /** A user posts; the app gets the `message` event. Returns the message ts and the delivery. */
  async userMessage(
    user: string,
    channel: string,
    text: string,
    options: { threadTs?: string } = {},
  ): Promise<{ ts: string; eventId: string; delivery: Delivery }> {
    const ts = this.#ts();
    this.messages.push({
      channel,
      ts,
      user,
      text,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      history: [{ text }],
    });
    const event = {
      type: "message",
      channel,
      user,
      text,
      ts,
      channel_type: "channel",
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
    };
    const eventId = `Ev${randomBytes(5).toString("hex").toUpperCase()}`;
    const delivery = await this.deliverEvent(event, eventId);
    return { ts, eventId, delivery };
  }

  async userReaction(user: string, channel: string, ts: string, name: string): Promise<Delivery> {
    this.reactions.push({ channel, ts, name, user });
    const event = {
      type: "reaction_added",
      user,
      reaction: name,
      item: { type: "message", channel, ts },
      item_user: this.message(channel, ts)?.user,
      event_ts: this.#ts(),
    };
    return this.deliverEvent(event, `Ev${randomBytes(5).toString("hex").toUpperCase()}`);
  }

  /** An Events API callback; `retryNum` marks it a retry of the same event id, as Slack does. */
  async deliverEvent(event: Record<string, unknown>, eventId: string, retryNum?: number): Promise<Delivery> {
    const envelope = eventEnvelope(event, eventId, this.#clock, this.botUserId);
    if (this.mode === "socket") {
      const retry = retryNum !== undefined ? { num: retryNum, reason: "timeout" } : undefined;
      return acked(await this.socketMode.send("events_api", envelope, retry));
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (retryNum !== undefined) {
      headers["x-slack-retry-num"] = String(retryNum);
      headers["x-slack-retry-reason"] = "http_timeout";
    }
    return this.#deliver(JSON.stringify(envelope), headers);
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
      actionTs: this.#ts(),
      responseUrl: `${this.#url}/response`,
    });
    if (this.mode === "socket") return acked(await this.socketMode.send("interactive", payload));
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return this.#deliver(body, { "content-type": "application/x-www-form-urlencoded" });
  }

  async slashCommand(user: string, channel: string, command: string, text: string): Promise<Delivery> {
    const params = slashCommandParams({ user, channel, command, text, responseUrl: `${this.#url}/response` });
    if (this.mode === "socket") return acked(await this.socketMode.send("slash_commands", params));
    return this.#deliver(new URLSearchParams(params).toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
  }

  async #deliver(body: string, headers: Record<string, string>): Promise<Delivery> {
    if (!this.appUrl) throw new Error("set appUrl to the app's request URL first");
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = slackSignature(this.#signingSecret, timestamp, body);
    const response = await fetch(this.appUrl, {
      method: "POST",
      headers: { ...headers, "x-slack-request-timestamp": timestamp, "x-slack-signature": signature },
      body,
    });
    return { status: response.status, body: await response.text() };
  }

  // --- app → Slack (Web API) ------------------------------------------------------------------

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.#url);
    if (url.pathname === "/response") return reply(res, 200, { ok: true });
    const method = url.pathname.replace(/^\/api\//, "");
    this.calls.push(method);
    const token = req.headers.authorization?.replace(/^Bearer /, "");
    const args = await readArgs(req);
    if (method === "apps.connections.open") {
      if (!this.#appToken || token !== this.#appToken)
        return reply(res, 200, { ok: false, error: "invalid_auth" });
      const ws = this.#url.replace(/^http/, "ws");
      return reply(res, 200, { ok: true, url: `${ws}/socket?ticket=${randomBytes(6).toString("hex")}` });
    }
    if ((token ?? args.token) !== this.#botToken)
      return reply(res, 200, { ok: false, error: "invalid_auth" });
    switch (method) {
      case "auth.test":
        return reply(res, 200, {
          ok: true,
          url: "https://double.slack.test/",
          team: "Double",
          user: "oikos",
          team_id: "T0DOUBLE",
          user_id: this.botUserId,
          bot_id: this.botId,
        });
      case "chat.postMessage":
        return this.#post(res, args);
      case "chat.update":
        return this.#update(res, args);
      case "reactions.add": {
        const { channel, timestamp, name } = args as { channel: string; timestamp: string; name: string };
        if (!this.message(channel, timestamp))
          return reply(res, 200, { ok: false, error: "message_not_found" });
        this.reactions.push({ channel, ts: timestamp, name, user: this.botUserId });
        return reply(res, 200, { ok: true });
      }
      case "usergroups.users.list": {
        const users = this.userGroups.get(String(args.usergroup));
        return users
          ? reply(res, 200, { ok: true, users })
          : reply(res, 200, { ok: false, error: "no_such_subteam" });
      }
      case "conversations.info":
        return reply(res, 200, {
          ok: true,
          channel: { id: args.channel, is_channel: true, is_member: true },
        });
      default:
        return reply(res, 200, { ok: false, error: "unknown_method" });
    }
  }

  #post(res: ServerResponse, args: Record<string, unknown>) {
    const parsed = postMessageSchema.safeParse(args);
    if (!parsed.success) return this.#invalid(res, "chat.postMessage", parsed.error.issues, args);
    const { channel, text, blocks, thread_ts } = parsed.data;
    if (thread_ts && !this.message(channel, thread_ts))
      return reply(res, 200, { ok: false, error: "thread_not_found" });
    const ts = this.#ts();
    const message: SlackMessage = {
      channel,
      ts,
      user: this.botUserId,
      text,
      ...(blocks ? { blocks } : {}),
      ...(thread_ts ? { thread_ts } : {}),
      history: [{ text, ...(blocks ? { blocks } : {}) }],
    };
    this.messages.push(message);
    reply(res, 200, {
      ok: true,
      channel,
      ts,
      message: { type: "message", text, user: this.botUserId, ts, bot_id: this.botId },
    });
  }

  #update(res: ServerResponse, args: Record<string, unknown>) {
    const parsed = updateMessageSchema.safeParse(args);
    if (!parsed.success) return this.#invalid(res, "chat.update", parsed.error.issues, args);
    const message = this.message(parsed.data.channel, parsed.data.ts);
    if (!message) return reply(res, 200, { ok: false, error: "message_not_found" });
    if (message.user !== this.botUserId) return reply(res, 200, { ok: false, error: "cant_update_message" });
    message.text = parsed.data.text;
    if (parsed.data.blocks) message.blocks = parsed.data.blocks;
    else delete message.blocks;
    message.history.push({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
    reply(res, 200, { ok: true, channel: message.channel, ts: message.ts, text: message.text });
  }

  #invalid(
    res: ServerResponse,
    method: string,
    issues: { path: PropertyKey[]; message: string }[],
    args: unknown,
  ): void {
    this.violations.push({
      method,
      issues: issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`),
      args,
    });
    reply(res, 200, { ok: false, error: "invalid_blocks", errors: issues.map((i) => i.message) });
  }

  #ts(): string {
    this.#seq++;
    return `${this.#clock + this.#seq}.${String(this.#seq).padStart(6, "0")}`;
  }
}

/** The Web API takes form-encoded arguments (nested values as JSON strings) or a JSON body. */
async function readArgs(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  if ((req.headers["content-type"] ?? "").includes("application/json"))
    return JSON.parse(text) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    args[key] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A Socket Mode ack as a delivery result (the WebSocket has no status code: acked = 200). */
function acked(payload: unknown): Delivery {
  return { status: 200, body: JSON.stringify(payload ?? {}) };
}
