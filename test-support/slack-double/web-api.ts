import { type Block, postMessageSchema, updateMessageSchema } from "./block-kit-schemas.ts";
import { inspectBotText } from "./encode-text.ts";
import { METHOD_SCOPES, type SlackChannel, type SlackMessage, type Workspace } from "./workspace.ts";

export interface ApiReply {
  status: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
}

/** A failure scripted by a test: the next `times` matching calls of `method` get it. */
export interface Fault {
  method: string;
  times: number;
  match?: (args: Record<string, unknown>) => boolean;
  reply: { error: string; extra?: Record<string, unknown> } | { retryAfterS: number };
}

export interface SlackViolation {
  method: string;
  issues: string[];
  args: unknown;
}

/** What the app's own actions look like to the app (Slack echoes them as events). */
export type Echo =
  | { kind: "posted"; message: SlackMessage }
  | { kind: "updated"; message: SlackMessage; previous: { text: string; blocks?: Block[] } }
  | { kind: "reacted"; channel: string; ts: string; name: string };

/** Slack refuses a `text` this long (chat.postMessage: "limit … to 4,000 characters"). */
const TEXT_LIMIT = 4_000;
/** …and blocks holding this many characters in all (msg_blocks_too_long). */
const BLOCKS_CHAR_LIMIT = 12_000;

/**
 * The Web API methods oikos calls, answering as Slack's reference pages say: the method's
 * required scope (missing_scope with `needed`/`provided`; X-OAuth-Scopes on every answer),
 * channel membership and state (channel_not_found, not_in_channel, is_archived), message rules
 * (message_not_found, cant_update_message, already_reacted, no_reaction, user_not_in_channel),
 * Block Kit and length limits (invalid_blocks, msg_too_long, msg_blocks_too_long), and the
 * failures a test scripts, including HTTP 429 with Retry-After.
 */
export class WebApi {
  readonly #workspace: Workspace;
  readonly #botId: string;
  readonly #onEcho: (echo: Echo) => void;
  readonly faults: Fault[] = [];
  readonly violations: SlackViolation[] = [];
  /** Mentions, broadcasts and channel links the bot's text formed (<@U…>, <!channel>, <#C…>). */
  readonly mentions: { method: string; mention: string; text: string }[] = [];
  readonly ephemeral: { channel: string; user: string; text: string; blocks?: Block[] }[] = [];
  scopes: Set<string>;

  constructor(workspace: Workspace, botId: string, scopes: string[], onEcho: (echo: Echo) => void) {
    this.#workspace = workspace;
    this.#botId = botId;
    this.scopes = new Set(scopes);
    this.#onEcho = onEcho;
  }

  handle(method: string, args: Record<string, unknown>): ApiReply {
    const headers = { "x-oauth-scopes": [...this.scopes].join(",") };
    const needed = METHOD_SCOPES[method];
    if (needed === undefined) return { status: 200, headers, body: { ok: false, error: "unknown_method" } };
    const scripted = this.#fault(method, args);
    if (scripted) return { ...scripted, headers: { ...headers, ...scripted.headers } };
    if (needed && !this.scopes.has(needed)) {
      return {
        status: 200,
        headers: { ...headers, "x-accepted-oauth-scopes": needed },
        body: { ok: false, error: "missing_scope", needed, provided: [...this.scopes].join(",") },
      };
    }
    const body = this.#call(method, args);
    return {
      status: 200,
      headers: { ...headers, ...(needed ? { "x-accepted-oauth-scopes": needed } : {}) },
      body,
    };
  }

  #fault(method: string, args: Record<string, unknown>): ApiReply | undefined {
    const index = this.faults.findIndex(
      (f) => f.method === method && f.times > 0 && (f.match?.(args) ?? true),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index]!;
    fault.times--;
    if ("retryAfterS" in fault.reply) {
      return {
        status: 429,
        headers: { "retry-after": String(fault.reply.retryAfterS) },
        body: { ok: false, error: "ratelimited" },
      };
    }
    return { status: 200, body: { ok: false, error: fault.reply.error, ...fault.reply.extra } };
  }

  #call(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const w = this.#workspace;
    switch (method) {
      case "auth.test":
        return {
          ok: true,
          url: "https://double.slack.test/",
          team: "Double",
          user: "oikos",
          team_id: "T0DOUBLE",
          user_id: w.botUserId,
          bot_id: this.#botId,
          is_enterprise_install: false,
        };
      case "chat.postMessage":
        return this.#post(args);
      case "chat.update":
        return this.#update(args);
      case "chat.delete": {
        const message = w.message(String(args.channel), String(args.ts));
        if (!message) return fail("message_not_found");
        if (message.user !== w.botUserId) return fail("cant_delete_message");
        message.deleted = true;
        return { ok: true, channel: message.channel, ts: message.ts };
      }
      case "chat.postEphemeral": {
        const channel = this.#writable(String(args.channel ?? ""));
        if ("error" in channel) return channel;
        const user = String(args.user ?? "");
        if (!channel.members.has(user)) return fail("user_not_in_channel");
        const checked = this.#checkMessage("chat.postEphemeral", args, postMessageSchema);
        if ("error" in checked) return checked;
        this.ephemeral.push({
          channel: channel.id,
          user,
          text: checked.text,
          ...(checked.blocks ? { blocks: checked.blocks } : {}),
        });
        return { ok: true, message_ts: w.nextTs() };
      }
      case "reactions.add":
      case "reactions.remove": {
        const { channel, timestamp, name } = args as { channel: string; timestamp: string; name: string };
        if (!w.message(channel, timestamp)) return fail("message_not_found");
        const index = w.reactions.findIndex(
          (r) => r.channel === channel && r.ts === timestamp && r.name === name && r.user === w.botUserId,
        );
        if (method === "reactions.remove") {
          if (index < 0) return fail("no_reaction");
          w.reactions.splice(index, 1);
          return { ok: true };
        }
        if (index >= 0) return fail("already_reacted");
        w.reactions.push({ channel, ts: timestamp, name, user: w.botUserId });
        this.#onEcho({ kind: "reacted", channel, ts: timestamp, name });
        return { ok: true };
      }
      case "usergroups.users.list": {
        const users = w.userGroups.get(String(args.usergroup));
        return users ? { ok: true, users } : fail("no_such_subteam");
      }
      case "conversations.info": {
        const channel = w.channels.get(String(args.channel));
        if (!channel || (channel.isPrivate && !channel.members.has(w.botUserId)))
          return fail("channel_not_found");
        return {
          ok: true,
          channel: {
            id: channel.id,
            name: channel.name,
            is_channel: !channel.isPrivate,
            is_group: channel.isPrivate,
            is_private: channel.isPrivate,
            is_archived: channel.isArchived,
            is_member: channel.members.has(w.botUserId),
          },
        };
      }
      default:
        return fail("unknown_method");
    }
  }

  #post(args: Record<string, unknown>): Record<string, unknown> {
    const w = this.#workspace;
    const channel = this.#writable(String(args.channel ?? ""));
    if ("error" in channel) return channel;
    const checked = this.#checkMessage("chat.postMessage", args, postMessageSchema);
    if ("error" in checked) return checked;
    const { text, blocks, thread_ts } = checked;
    const ts = w.nextTs();
    const message: SlackMessage = {
      channel: channel.id,
      ts,
      user: w.botUserId,
      text,
      ...(blocks ? { blocks } : {}),
      ...(thread_ts ? { thread_ts } : {}),
      history: [{ text, ...(blocks ? { blocks } : {}) }],
    };
    w.messages.push(message);
    this.#onEcho({ kind: "posted", message });
    return {
      ok: true,
      channel: channel.id,
      ts,
      message: {
        type: "message",
        text,
        user: w.botUserId,
        ts,
        bot_id: this.#botId,
        ...(blocks ? { blocks } : {}),
      },
    };
  }

  #update(args: Record<string, unknown>): Record<string, unknown> {
    const w = this.#workspace;
    const channel = this.#writable(String(args.channel ?? ""));
    if ("error" in channel) return channel;
    const checked = this.#checkMessage("chat.update", args, updateMessageSchema);
    if ("error" in checked) return checked;
    const message = w.message(channel.id, String(args.ts));
    if (!message) return fail("message_not_found");
    if (message.user !== w.botUserId) return fail("cant_update_message");
    const previous = { text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) };
    message.text = checked.text;
    if (checked.blocks) message.blocks = checked.blocks;
    else delete message.blocks;
    message.history.push({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
    this.#onEcho({ kind: "updated", message, previous });
    return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
  }

  /** A channel the bot may post in, or Slack's error for why not. */
  #writable(id: string): SlackChannel | { ok: false; error: string } {
    const channel = this.#workspace.channels.get(id);
    const member = channel?.members.has(this.#workspace.botUserId) ?? false;
    if (!channel || (channel.isPrivate && !member)) return fail("channel_not_found");
    if (channel.isArchived) return fail("is_archived");
    if (!member && !this.scopes.has("chat:write.public")) return fail("not_in_channel");
    return channel;
  }

  #checkMessage(
    method: string,
    args: Record<string, unknown>,
    schema: typeof postMessageSchema | typeof updateMessageSchema,
  ): { text: string; blocks?: Block[]; thread_ts?: string } | { ok: false; error: string } {
    const parsed = schema.safeParse(args);
    if (!parsed.success) {
      this.violations.push({
        method,
        issues: parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`),
        args,
      });
      return fail(args.text ? "invalid_blocks" : "no_text");
    }
    const { text, blocks } = parsed.data;
    if (text.length > TEXT_LIMIT) return fail("msg_too_long");
    const shown = (blocks ?? []).flatMap(blockTexts);
    if (shown.reduce((n, t) => n + t.text.length, 0) > BLOCKS_CHAR_LIMIT) return fail("msg_blocks_too_long");
    const parsedAsMrkdwn = [text, ...shown.filter((t) => t.mrkdwn).map((t) => t.text)];
    for (const t of parsedAsMrkdwn) {
      const { unescaped, mentions } = inspectBotText(t);
      if (unescaped.length > 0)
        this.violations.push({
          method,
          issues: [`unescaped ${unescaped.join(" ")} in ${JSON.stringify(t.slice(0, 80))}`],
          args,
        });
      for (const mention of mentions) this.mentions.push({ method, mention, text: t });
    }
    return {
      text,
      ...(blocks ? { blocks } : {}),
      ...(parsed.data.thread_ts ? { thread_ts: parsed.data.thread_ts } : {}),
    };
  }
}

/** Every text a block shows (section, context elements, header, button labels), and whether Slack parses it as mrkdwn. */
export function blockTexts(block: Block): { text: string; mrkdwn: boolean }[] {
  switch (block.type) {
    case "section":
    case "header":
      return [{ text: block.text.text, mrkdwn: block.text.type === "mrkdwn" }];
    case "context":
      return block.elements.map((e) => ({ text: e.text, mrkdwn: e.type === "mrkdwn" }));
    case "actions":
      return block.elements.map((e) => ({ text: e.text.text, mrkdwn: false }));
    default:
      return [];
  }
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}
