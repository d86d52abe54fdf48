import type { Logger } from "../../base/logger.ts";
import type { MessageRef, Outbound } from "../core/chat-adapter.ts";
import { cardToMessages, type SlackRendering, textToMessages } from "./card-blocks.ts";
import { MessageUpdates } from "./message-updates.ts";
import type { SlackCalls } from "./slack-calls.ts";
import { SlackCallError } from "./slack-errors.ts";

/** The reaction a card wears while Slack's rate limit delays its update. */
export const DELAYED_REACTION = "hourglass_flowing_sand";
const OVERFLOW_REMEMBERED = 2_000;

/**
 * Posting and editing in Slack: a message longer than one Slack message goes out as several
 * (the first is the one the core addresses; the rest follow in its thread, each marked
 * "continued"); an edit updates each part in place (posting or deleting parts when the length
 * changed). Errors are named in the log once per channel and cause; a message Slack calls too
 * long is sent again in parts half the size; card updates never wait on each other (see
 * MessageUpdates).
 */
export class SlackOutbound {
  readonly #calls: SlackCalls;
  readonly #logger: Logger;
  readonly #updates: MessageUpdates;
  /** Per card (room:ts): the ts of the parts after the first, to edit them with it. */
  readonly #overflow = new Map<string, string[]>();
  /** Channel problems already logged ("C1:not_in_channel"), so a dead channel logs once. */
  readonly #reported = new Set<string>();

  constructor(deps: { calls: SlackCalls; logger: Logger }) {
    this.#calls = deps.calls;
    this.#logger = deps.logger;
    this.#updates = new MessageUpdates({
      logger: deps.logger,
      marker: {
        delayed: (key) => this.#mark(key, "reactions.add"),
        caughtUp: (key) => this.#mark(key, "reactions.remove"),
      },
    });
  }

  get delayedUpdates(): number {
    return this.#updates.waiting;
  }

  stop(): void {
    this.#updates.stop();
  }

  async post(room: string, thread: string | null, message: Outbound): Promise<MessageRef> {
    const parts = await this.#withShorterOnRefusal(message, async (rendered) => {
      const first = await this.#postOne(room, thread, rendered[0]!);
      const rest: string[] = [];
      for (const part of rendered.slice(1)) rest.push(await this.#postOne(room, thread ?? first, part));
      return [first, ...rest];
    });
    const [first, ...rest] = parts;
    if (rest.length > 0) this.#remember(`${room}:${first}`, rest);
    return { platform: "slack", room, messageId: first!, thread };
  }

  /** Resolves once the card shows `message`, or its update was deferred by a rate limit. */
  edit(ref: MessageRef, message: Outbound): Promise<void> {
    const key = `${ref.room}:${ref.messageId}`;
    return this.#updates.update(key, () =>
      this.#withShorterOnRefusal(message, async (rendered) => {
        await this.#updateOne(ref.room, ref.messageId, rendered[0]!);
        const known = this.#overflow.get(key) ?? [];
        const kept: string[] = [];
        for (const [i, part] of rendered.slice(1).entries()) {
          const ts = known[i];
          if (ts) await this.#updateOne(ref.room, ts, part);
          kept.push(ts ?? (await this.#postOne(ref.room, ref.thread ?? ref.messageId, part)));
        }
        for (const ts of known.slice(rendered.length - 1)) await this.#delete(ref.room, ts);
        if (kept.length > 0) this.#remember(key, kept);
        else this.#overflow.delete(key);
      }),
    );
  }

  /** Sends every part through `respond` (a slash command's response_url). */
  async respond(
    respond: (payload: Record<string, unknown>) => Promise<unknown>,
    message: Outbound,
    responseType: "ephemeral" | "in_channel",
  ): Promise<void> {
    for (const part of render(message)) {
      await respond({
        response_type: responseType,
        replace_original: false,
        text: part.text,
        blocks: part.blocks,
      });
    }
  }

  /** Ephemeral message to one user in a channel (when a response_url is gone). */
  async postEphemeral(room: string, user: string, message: Outbound, thread?: string | null): Promise<void> {
    for (const part of render(message)) {
      await this.#calls.call(
        "chat.postEphemeral",
        {
          channel: room,
          user,
          text: part.text,
          blocks: part.blocks,
          ...(thread ? { thread_ts: thread } : {}),
        },
        { key: `chat.postEphemeral:${room}` },
      );
    }
  }

  async react(ref: MessageRef, name: string): Promise<void> {
    await this.#calls
      .call(
        "reactions.add",
        { channel: ref.room, timestamp: ref.messageId, name },
        { key: `reactions:${ref.room}` },
      )
      .catch((error: unknown) => {
        if (error instanceof SlackCallError && error.slackError === "already_reacted") return;
        throw this.#reportOnce(error, ref.room);
      });
  }

  async #postOne(room: string, thread: string | null, part: SlackRendering): Promise<string> {
    try {
      const result = await this.#calls.call(
        "chat.postMessage",
        {
          channel: room,
          text: part.text,
          blocks: part.blocks,
          unfurl_links: false,
          unfurl_media: false,
          ...(thread ? { thread_ts: thread } : {}),
        },
        { key: `chat.postMessage:${room}` },
      );
      return String((result as { ts?: string }).ts);
    } catch (error) {
      throw this.#reportOnce(error, room);
    }
  }

  async #updateOne(room: string, ts: string, part: SlackRendering): Promise<void> {
    try {
      await this.#calls.call(
        "chat.update",
        { channel: room, ts, text: part.text, blocks: part.blocks },
        { key: `chat.update:${room}:${ts}`, onRateLimit: "throw" },
      );
    } catch (error) {
      throw this.#reportOnce(error, room);
    }
  }

  async #delete(room: string, ts: string): Promise<void> {
    await this.#calls
      .call("chat.delete", { channel: room, ts }, { key: `chat.delete:${room}` })
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, room, ts }, "slack: could not delete a card part"),
      );
  }

  /** Renders `message`; when Slack refuses it as too long, once more in parts half the size. */
  async #withShorterOnRefusal<T>(
    message: Outbound,
    send: (parts: SlackRendering[]) => Promise<T>,
  ): Promise<T> {
    try {
      return await send(render(message));
    } catch (error) {
      if (
        !(error instanceof SlackCallError) ||
        (error.kind !== "msg_too_long" && error.kind !== "msg_blocks_too_long")
      ) {
        throw error;
      }
      this.#logger.warn(
        { slackError: error.slackError },
        "slack: message refused as too long; sending it in smaller parts",
      );
      return send(render(message, 0.4));
    }
  }

  #remember(key: string, parts: string[]): void {
    this.#overflow.delete(key);
    this.#overflow.set(key, parts);
    while (this.#overflow.size > OVERFLOW_REMEMBERED)
      this.#overflow.delete(this.#overflow.keys().next().value!);
  }

  async #mark(key: string, method: "reactions.add" | "reactions.remove"): Promise<void> {
    const at = key.lastIndexOf(":");
    await this.#calls.call(
      method,
      { channel: key.slice(0, at), timestamp: key.slice(at + 1), name: DELAYED_REACTION },
      { key: `reactions:${key.slice(0, at)}`, onRateLimit: "throw" },
    );
  }

  /** Logs a channel-level failure clearly, once per channel and cause; returns the error to throw. */
  #reportOnce(error: unknown, room: string): unknown {
    if (!(error instanceof SlackCallError)) return error;
    const channelLevel = ["not_in_channel", "channel_not_found", "is_archived", "missing_scope"].includes(
      error.kind,
    );
    const key = `${room}:${error.kind}:${error.needed ?? ""}`;
    if (channelLevel && !this.#reported.has(key)) {
      this.#reported.add(key);
      this.#logger.error(
        { channel: room, slackError: error.slackError, method: error.method },
        error.logMessage,
      );
    }
    return error;
  }
}

function render(message: Outbound, scale = 1): SlackRendering[] {
  return "card" in message ? cardToMessages(message.card, scale) : textToMessages(message.text, scale);
}
