/**
 * What the Slack app must be granted for the code in bot/slack/ to work: the one list the
 * start-up scope check, the Slack setup in docs/slack.md (checked by a test) and the app manifest there
 * come from. Add a row here when the adapter starts calling a method or handling an event.
 */

export interface ScopeNeed {
  scope: string;
  /** What breaks without it. */
  for: string;
  /** Needed only when operators come from a Slack user group. */
  onlyWithOperatorGroup?: boolean;
}

export const SLACK_BOT_SCOPES: readonly ScopeNeed[] = [
  {
    scope: "chat:write",
    for: "posting and editing cards, answers and summaries (chat.postMessage, chat.update, chat.delete)",
  },
  { scope: "channels:history", for: "messages in public channels (the message.channels event)" },
  { scope: "groups:history", for: "messages in private channels (the message.groups event)" },
  { scope: "reactions:read", for: "reactions on cards (the reaction_added event)" },
  {
    scope: "reactions:write",
    for: "the ⏳ on a card whose update Slack's rate limit delays (reactions.add/remove)",
  },
  { scope: "commands", for: "the /oikos slash command" },
  {
    scope: "usergroups:read",
    for: "operators by user group, SLACK_OPERATOR_GROUP, and approvers by user group, approvals.rules (usergroups.users.list)",
    onlyWithOperatorGroup: true,
  },
];

export const SLACK_BOT_EVENTS: readonly { event: string; scope: string; for: string }[] = [
  {
    event: "message.channels",
    scope: "channels:history",
    for: "requests, thread replies and typed confirmations in public channels",
  },
  { event: "message.groups", scope: "groups:history", for: "the same in private channels" },
  { event: "reaction_added", scope: "reactions:read", for: "✅/❌ (and 👍, any skin tone) on cards" },
];

/** Socket Mode's app-level token (xapp-…) needs this one scope. */
export const SLACK_APP_TOKEN_SCOPES = ["connections:write"] as const;

export const SLACK_SLASH_COMMAND = "/oikos";

/** The bot token scopes this configuration needs. */
export function requiredBotScopes(options: { operatorGroup: boolean }): string[] {
  return SLACK_BOT_SCOPES.filter((s) => !s.onlyWithOperatorGroup || options.operatorGroup).map(
    (s) => s.scope,
  );
}

/** A Slack app manifest (api.slack.com/apps → Create New App → From a manifest) for these needs. */
export function slackAppManifest(mode: "socket" | "http", requestUrl = "https://your-host/slack/events") {
  return {
    display_information: { name: "oikos", description: "Chat-ops agent for your own infrastructure" },
    features: {
      bot_user: { display_name: "oikos", always_online: true },
      slash_commands: [
        {
          command: SLACK_SLASH_COMMAND,
          description: "oikos commands: help, status, approvals, sweep, cancel",
          usage_hint: "help",
          should_escape: false,
          ...(mode === "http" ? { url: requestUrl } : {}),
        },
      ],
    },
    oauth_config: { scopes: { bot: SLACK_BOT_SCOPES.map((s) => s.scope) } },
    settings: {
      event_subscriptions: {
        bot_events: SLACK_BOT_EVENTS.map((e) => e.event),
        ...(mode === "http" ? { request_url: requestUrl } : {}),
      },
      interactivity: { is_enabled: true, ...(mode === "http" ? { request_url: requestUrl } : {}) },
      socket_mode_enabled: mode === "socket",
    },
  };
}
