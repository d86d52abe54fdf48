import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Block } from "./block-kit-schemas.ts";

// What Slack sends an app (over HTTP or Socket Mode), built the way Slack's reference pages show
// it (docs.slack.dev/reference/events/message, …/app_mention, …/reaction_added, the Events API
// envelope, interactivity payloads, slash commands). fixtures/ holds those documented examples;
// payloads.test.ts checks every builder here against them.

export const TEAM = "T0DOUBLE";
export const APP = "A0DOUBLE";

/** X-Slack-Signature for a body: v0=HMAC-SHA256(secret, "v0:<timestamp>:<body>"). */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

export function newEventId(): string {
  return `Ev${randomBytes(5).toString("hex").toUpperCase()}`;
}

export function eventEnvelope(
  event: Record<string, unknown>,
  eventId: string,
  eventTime: number,
  botUserId: string,
): Record<string, unknown> {
  return {
    token: "legacy-verification-token",
    team_id: TEAM,
    context_team_id: TEAM,
    context_enterprise_id: null,
    api_app_id: APP,
    event,
    type: "event_callback",
    event_id: eventId,
    event_time: eventTime,
    authorizations: [
      { enterprise_id: null, team_id: TEAM, user_id: botUserId, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${randomBytes(6).toString("hex")}`,
  };
}

/** A person's message (or its app_mention twin) as the event delivers it. */
export function userMessageEvent(input: {
  type: "message" | "app_mention";
  channel: string;
  channelType: "channel" | "group" | "im" | "mpim";
  user: string;
  text: string;
  ts: string;
  threadTs?: string;
  blocks: Record<string, unknown>[];
  clientMsgId: string;
  subtype?: string;
}): Record<string, unknown> {
  return {
    ...(input.type === "message" && input.subtype ? { subtype: input.subtype } : {}),
    user: input.user,
    type: input.type,
    ts: input.ts,
    client_msg_id: input.clientMsgId,
    text: input.text,
    team: TEAM,
    ...(input.threadTs ? { thread_ts: input.threadTs, parent_user_id: input.user } : {}),
    blocks: input.blocks,
    channel: input.channel,
    event_ts: input.ts,
    ...(input.type === "message" ? { channel_type: input.channelType } : {}),
  };
}

/** What the app hears of its own post: a message event with bot_id (modern apps: no subtype). */
export function botMessageEvent(input: {
  channel: string;
  channelType: "channel" | "group";
  botUserId: string;
  botId: string;
  text: string;
  blocks?: Block[];
  ts: string;
  threadTs?: string;
}): Record<string, unknown> {
  return {
    user: input.botUserId,
    type: "message",
    ts: input.ts,
    bot_id: input.botId,
    app_id: APP,
    text: input.text,
    team: TEAM,
    bot_profile: { id: input.botId, app_id: APP, name: "oikos", deleted: false, team_id: TEAM },
    ...(input.threadTs ? { thread_ts: input.threadTs, parent_user_id: input.botUserId } : {}),
    ...(input.blocks ? { blocks: input.blocks } : {}),
    channel: input.channel,
    event_ts: input.ts,
    channel_type: input.channelType,
  };
}

/** `message_changed`: what an app hears when a message (the bot's card) is edited. */
export function messageChangedEvent(input: {
  channel: string;
  channelType: "channel" | "group";
  message: Record<string, unknown>;
  previous: Record<string, unknown>;
  eventTs: string;
}): Record<string, unknown> {
  return {
    type: "message",
    subtype: "message_changed",
    message: input.message,
    previous_message: input.previous,
    channel: input.channel,
    hidden: true,
    ts: input.eventTs,
    event_ts: input.eventTs,
    channel_type: input.channelType,
  };
}

export function reactionAddedEvent(input: {
  user: string;
  reaction: string;
  channel: string;
  ts: string;
  itemUser: string | undefined;
  eventTs: string;
}): Record<string, unknown> {
  return {
    type: "reaction_added",
    user: input.user,
    reaction: input.reaction,
    ...(input.itemUser ? { item_user: input.itemUser } : {}),
    item: { type: "message", channel: input.channel, ts: input.ts },
    event_ts: input.eventTs,
  };
}

export function blockActionsPayload(input: {
  user: string;
  channel: string;
  channelName: string;
  message: { ts: string; text: string; user: string; blocks?: Block[]; thread_ts?: string };
  actionId: string;
  blockId: string;
  value: string | undefined;
  actionTs: string;
  responseUrl: string;
  buttonText: string;
}): Record<string, unknown> {
  return {
    type: "block_actions",
    user: {
      id: input.user,
      username: input.user.toLowerCase(),
      name: input.user.toLowerCase(),
      team_id: TEAM,
    },
    api_app_id: APP,
    token: "legacy-verification-token",
    container: {
      type: "message",
      message_ts: input.message.ts,
      channel_id: input.channel,
      is_ephemeral: false,
      ...(input.message.thread_ts ? { thread_ts: input.message.thread_ts } : {}),
    },
    trigger_id: triggerId(),
    team: { id: TEAM, domain: "double" },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: input.channel, name: input.channelName },
    message: { type: "message", ...input.message, team: TEAM },
    state: { values: {} },
    response_url: input.responseUrl,
    actions: [
      {
        action_id: input.actionId,
        block_id: input.blockId,
        text: { type: "plain_text", text: input.buttonText, emoji: true },
        ...(input.value !== undefined ? { value: input.value } : {}),
        type: "button",
        action_ts: input.actionTs,
      },
    ],
  };
}

export function slashCommandParams(input: {
  user: string;
  channel: string;
  channelName: string;
  command: string;
  text: string;
  responseUrl: string;
}): Record<string, string> {
  return {
    token: "legacy-verification-token",
    team_id: TEAM,
    team_domain: "double",
    channel_id: input.channel,
    channel_name: input.channelName,
    user_id: input.user,
    user_name: input.user.toLowerCase(),
    command: input.command,
    text: input.text,
    api_app_id: APP,
    is_enterprise_install: "false",
    response_url: input.responseUrl,
    trigger_id: triggerId(),
  };
}

export function clientMsgId(): string {
  return randomUUID();
}

function triggerId(): string {
  return `${Date.now()}.${randomBytes(4).readUInt32BE()}.${randomBytes(16).toString("hex")}`;
}
