import { z } from "zod";
import type { CardAction, Inbound } from "../core/chat-adapter.ts";
import { decodeSlackText, mentionsUser } from "./inbound-text.ts";

/**
 * Slack's payloads (Events API events, block_actions, slash commands) checked with zod and
 * turned into the core's platform-free `Inbound`, text decoded once here. Shapes follow Slack's
 * documentation (docs.slack.dev/reference/events/message, …/app_mention, …/reaction_added,
 * interactivity "block_actions", slash commands); fields we do not use may be anything.
 */

/** Slack timestamps ("1355517523.000005"); taken as given (a documented example even drops the dot). */
const ts = z.string().min(1);

export const messageEventSchema = z.looseObject({
  type: z.enum(["message", "app_mention"]),
  subtype: z.string().optional(),
  hidden: z.boolean().optional(),
  channel: z.string().min(1),
  channel_type: z.string().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  text: z.string().optional(),
  ts,
  thread_ts: ts.optional(),
  event_ts: ts.optional(),
});

export const reactionEventSchema = z.looseObject({
  type: z.literal("reaction_added"),
  user: z.string().min(1),
  reaction: z.string().min(1),
  item: z.looseObject({ type: z.string(), channel: z.string().optional(), ts: ts.optional() }),
  event_ts: ts.optional(),
});

export const blockActionsSchema = z.looseObject({
  type: z.literal("block_actions"),
  user: z.looseObject({ id: z.string().min(1) }),
  channel: z.looseObject({ id: z.string() }).optional(),
  container: z
    .looseObject({ type: z.string(), message_ts: ts.optional(), channel_id: z.string().optional() })
    .optional(),
  actions: z.array(z.looseObject({ action_id: z.string(), action_ts: z.string().optional() })).min(1),
});

export const slashCommandSchema = z.looseObject({
  command: z.string().startsWith("/"),
  text: z.string().default(""),
  user_id: z.string().min(1),
  channel_id: z.string().min(1),
  channel_name: z.string().optional(),
  trigger_id: z.string().min(1),
  response_url: z.string().optional(),
});

/** Subtypes that are a person writing; edits, joins, bot posts and the rest are not requests. */
const PERSON_SUBTYPES = new Set(["thread_broadcast", "file_share"]);

export interface InboundContext {
  /** The bot's own user id (its mention is dropped, its own posts ignored). */
  selfId: string;
  /** Whether the adapter serves this channel. */
  served(channel: string): boolean;
  /** Only messages that mention the bot may start a task (SLACK_REQUIRE_MENTION). */
  requireMention: boolean;
  /**
   * Epoch ms since when this deployment serves Slack: a message or reaction written before it
   * (a redelivery of an old event) is history, not a request. Absent: every event is live.
   */
  liveSince?: number;
}

/** Slack's clock and ours may differ a little: an event this close before `liveSince` still counts. */
export const CLOCK_SKEW_MS = 30_000;

/** Whether an event written at Slack time `ts` ("1355517523.000005") came after `liveSince`. */
export function isLive(ts: string | undefined, ctx: InboundContext): boolean {
  if (ctx.liveSince === undefined || ts === undefined) return true;
  const ms = Number(ts) * 1000;
  return !Number.isFinite(ms) || ms >= ctx.liveSince - CLOCK_SKEW_MS;
}

/** A channel Slack calls a direct message (D…, or a slash command's "directmessage"/"mpdm-…"). */
export function isDirectMessage(channel: string, hint?: string): boolean {
  return (
    channel.startsWith("D") ||
    hint === "im" ||
    hint === "mpim" ||
    hint === "directmessage" ||
    (hint ?? "").startsWith("mpdm-")
  );
}

/**
 * A `message` or `app_mention` event as an Inbound message, or undefined when it is not a
 * person's request in a served channel written since the deployment serves Slack. Keyed by channel and ts, so the `message` and the
 * `app_mention` Slack sends for one mention, and every redelivery, are one event to the core.
 */
export function messageToInbound(raw: unknown, ctx: InboundContext): Inbound | undefined {
  const parsed = messageEventSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const e = parsed.data;
  if (e.hidden || (e.subtype && !PERSON_SUBTYPES.has(e.subtype))) return undefined;
  if (e.bot_id || !e.user || e.user === ctx.selfId || typeof e.text !== "string") return undefined;
  if (isDirectMessage(e.channel, e.channel_type) || !ctx.served(e.channel)) return undefined;
  if (!isLive(e.ts, ctx)) return undefined;
  const thread = e.thread_ts && e.thread_ts !== e.ts ? e.thread_ts : null;
  return {
    kind: "message",
    platform: "slack",
    room: e.channel,
    eventId: `message:${e.channel}:${e.ts}`,
    messageId: e.ts,
    user: e.user,
    thread,
    text: decodeSlackText(e.text, { selfId: ctx.selfId }),
    ...(ctx.requireMention ? { addressed: mentionsUser(e.text, ctx.selfId) } : {}),
  };
}

const editSchema = z.looseObject({
  type: z.literal("message"),
  subtype: z.literal("message_changed"),
  channel: z.string().min(1),
  channel_type: z.string().optional(),
  ts: ts.optional(),
  message: z.looseObject({
    user: z.string().optional(),
    bot_id: z.string().optional(),
    text: z.string().optional(),
    ts,
    thread_ts: ts.optional(),
  }),
});

export interface EditedMessage {
  channel: string;
  user: string;
  thread: string | null;
  /** The new text, decoded. */
  text: string;
}

/**
 * A person's edit of their own message in a served channel (`message_changed`). Edits are never
 * requests — an answer changed after the fact must not approve anything — but the adapter tells
 * the person when the new text reads as an answer, so they send it again instead of waiting.
 */
export function editedMessage(raw: unknown, ctx: InboundContext): EditedMessage | undefined {
  const parsed = editSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const e = parsed.data;
  const m = e.message;
  if (m.bot_id || !m.user || m.user === ctx.selfId || typeof m.text !== "string") return undefined;
  if (isDirectMessage(e.channel, e.channel_type) || !ctx.served(e.channel)) return undefined;
  if (!isLive(e.ts, ctx)) return undefined;
  return {
    channel: e.channel,
    user: m.user,
    thread: m.thread_ts && m.thread_ts !== m.ts ? m.thread_ts : null,
    text: decodeSlackText(m.text, { selfId: ctx.selfId }),
  };
}

/** `reaction_added` on a message in a served channel; the skin tone is not part of the reaction. */
export function reactionToInbound(
  raw: unknown,
  eventId: string | undefined,
  ctx: InboundContext,
): Inbound | undefined {
  const parsed = reactionEventSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const e = parsed.data;
  const { channel, ts: target } = e.item;
  if (e.item.type !== "message" || !channel || !target || e.user === ctx.selfId) return undefined;
  if (!ctx.served(channel) || isDirectMessage(channel)) return undefined;
  if (!isLive(e.event_ts, ctx)) return undefined;
  const key = e.reaction.replace(/::skin-tone-\d+$/, "");
  return {
    kind: "reaction",
    platform: "slack",
    room: channel,
    eventId: eventId ?? `reaction:${channel}:${target}:${e.user}:${e.reaction}:${e.event_ts ?? ""}`,
    user: e.user,
    target,
    key,
  };
}

/** The choices our buttons carry (`oikos:approve`, `oikos:grant`, `oikos:deny`, `oikos:rollback`, `oikos:preview`, `oikos:option:2`). */
const cardActionSchema = z.union([
  z.literal("approve"),
  z.literal("grant"),
  z.literal("deny"),
  z.literal("rollback"),
  z.literal("preview"),
  z.string().regex(/^option:[1-9]\d{0,2}$/),
]);

/** A click on one of our buttons (`oikos:<action>`); another id, or a malformed one, is not ours. */
export function buttonToInbound(raw: unknown): (Inbound & { kind: "button" }) | undefined {
  const parsed = blockActionsSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const b = parsed.data;
  const action = b.actions[0]!;
  if (!action.action_id.startsWith("oikos:")) return undefined;
  const choice = cardActionSchema.safeParse(action.action_id.slice("oikos:".length));
  if (!choice.success) return undefined;
  const room = b.channel?.id ?? b.container?.channel_id ?? "";
  const target = b.container?.message_ts ?? "";
  return {
    kind: "button",
    platform: "slack",
    room,
    eventId: `action:${target}:${action.action_id}:${b.user.id}:${action.action_ts ?? ""}`,
    user: b.user.id,
    target,
    action: choice.data as CardAction,
  };
}

/** `/oikos <text>` as the core's command (`!oikos <text>`). */
export function commandToInbound(raw: unknown, selfId: string): (Inbound & { kind: "command" }) | undefined {
  const parsed = slashCommandSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const c = parsed.data;
  return {
    kind: "command",
    platform: "slack",
    room: c.channel_id,
    eventId: `slash:${c.trigger_id}`,
    user: c.user_id,
    thread: null,
    text: `!oikos ${decodeSlackText(c.text, { selfId })}`.trim(),
  };
}
