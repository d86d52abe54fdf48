import { OikosError } from "../../base/errors.ts";

/**
 * Web API errors the adapter handles by name (https://docs.slack.dev/reference/methods/chat.postMessage
 * "Errors"); anything else is `other` and keeps Slack's own name in `slackError`.
 */
export const HANDLED_SLACK_ERRORS = [
  "ratelimited",
  "not_in_channel",
  "channel_not_found",
  "is_archived",
  "msg_too_long",
  "msg_blocks_too_long",
  "missing_scope",
  "invalid_blocks",
  "message_not_found",
  "cant_update_message",
  "invalid_auth",
  "not_authed",
  "token_revoked",
  "account_inactive",
] as const;

export type SlackErrorName = (typeof HANDLED_SLACK_ERRORS)[number] | "request_failed" | "other";

export class SlackCallError extends OikosError {
  readonly kind: SlackErrorName;
  readonly method: string;
  /** Slack's own error string (or the transport's message). */
  readonly slackError: string;
  /** missing_scope: the scope the method needs. */
  readonly needed: string | undefined;
  /** ratelimited: seconds Slack asked to wait. */
  readonly retryAfterS: number | undefined;

  constructor(input: {
    method: string;
    slackError: string;
    channel?: string;
    needed?: string;
    retryAfterS?: number;
    cause?: unknown;
  }) {
    const kind = nameOf(input.slackError);
    const advice = adviceFor(kind, input);
    super(`slack_${kind}`, advice, {
      logMessage: `slack: ${input.method} failed with ${input.slackError}: ${advice}`,
      cause: input.cause,
    });
    this.name = "SlackCallError";
    this.kind = kind;
    this.method = input.method;
    this.slackError = input.slackError;
    this.needed = input.needed;
    this.retryAfterS = input.retryAfterS;
  }
}

function nameOf(error: string): SlackErrorName {
  if (error === "rate_limited") return "ratelimited";
  if (error.startsWith("request_failed")) return "request_failed";
  return (HANDLED_SLACK_ERRORS as readonly string[]).includes(error) ? (error as SlackErrorName) : "other";
}

/** What the operator should do, in words: the log line and (where one can be sent) the chat answer. */
function adviceFor(
  kind: SlackErrorName,
  input: { method: string; slackError: string; channel?: string; needed?: string; retryAfterS?: number },
): string {
  const channel = input.channel ? `channel ${input.channel}` : "the channel";
  switch (kind) {
    case "ratelimited":
      return `Slack rate-limited ${input.method}; retrying after ${input.retryAfterS ?? "?"} s.`;
    case "not_in_channel":
      return `The bot is not a member of ${channel}: invite it there (/invite @oikos), or remove the channel from SLACK_CHANNELS.`;
    case "channel_not_found":
      return `Slack does not know ${channel}, or it is private and the bot is not in it: check SLACK_CHANNELS and invite the bot.`;
    case "is_archived":
      return `${capitalised(channel)} is archived: unarchive it, or serve another channel in SLACK_CHANNELS.`;
    case "msg_too_long":
    case "msg_blocks_too_long":
      return "Slack refused the message as too long; it is sent again in shorter parts.";
    case "missing_scope":
      return `The bot token lacks the scope ${input.needed ?? "this method needs"} for ${input.method}: add it under OAuth & Permissions and reinstall the app (docs/slack.md, Setup).`;
    case "invalid_blocks":
      return "Slack refused the message layout (invalid_blocks); this is a bug in oikos's Block Kit rendering.";
    case "message_not_found":
    case "cant_update_message":
      return "The message to update is gone or not the bot's own; a new one is posted on the next change.";
    case "invalid_auth":
    case "not_authed":
    case "token_revoked":
    case "account_inactive":
      return "Slack refused the bot token: check SLACK_BOT_TOKEN (reinstall the app to get a new one).";
    case "request_failed":
      return `Slack could not be reached (${input.slackError}); the call is retried on the next change.`;
    case "other":
      return `Slack answered ${input.slackError} to ${input.method}.`;
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
