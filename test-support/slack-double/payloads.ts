import { createHmac, randomBytes } from "node:crypto";
import type { Block } from "./block-kit-schemas.ts";

// What Slack sends an app (over HTTP or Socket Mode), built the way Slack builds it.

export const TEAM = "T0DOUBLE";
export const APP = "A0DOUBLE";

/** X-Slack-Signature for a body: v0=HMAC-SHA256(secret, "v0:<timestamp>:<body>"). */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
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
    api_app_id: APP,
    event,
    type: "event_callback",
    event_id: eventId,
    event_time: eventTime,
    authorizations: [{ team_id: TEAM, user_id: botUserId, is_bot: true }],
  };
}

export function blockActionsPayload(input: {
  user: string;
  channel: string;
  message: { ts: string; text: string; user: string; blocks?: Block[]; thread_ts?: string };
  actionId: string;
  blockId: string;
  value: string | undefined;
  actionTs: string;
  responseUrl: string;
}): Record<string, unknown> {
  return {
    type: "block_actions",
    user: { id: input.user, username: input.user, team_id: TEAM },
    api_app_id: APP,
    team: { id: TEAM },
    container: {
      type: "message",
      message_ts: input.message.ts,
      channel_id: input.channel,
      is_ephemeral: false,
    },
    trigger_id: `trig.${randomBytes(6).toString("hex")}`,
    channel: { id: input.channel },
    message: { type: "message", ...input.message },
    response_url: input.responseUrl,
    actions: [
      {
        type: "button",
        action_id: input.actionId,
        block_id: input.blockId,
        value: input.value,
        action_ts: input.actionTs,
      },
    ],
  };
}

export function slashCommandParams(input: {
  user: string;
  channel: string;
  command: string;
  text: string;
  responseUrl: string;
}): Record<string, string> {
  return {
    token: "legacy-verification-token",
    team_id: TEAM,
    channel_id: input.channel,
    user_id: input.user,
    command: input.command,
    text: input.text,
    api_app_id: APP,
    response_url: input.responseUrl,
    trigger_id: `trig.${randomBytes(6).toString("hex")}`,
  };
}
