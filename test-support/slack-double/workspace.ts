import type { Block } from "./block-kit-schemas.ts";

/** One message as the double keeps it (Slack's conversation history). */
export interface SlackMessage {
  channel: string;
  ts: string;
  user: string;
  text: string;
  blocks?: Block[];
  thread_ts?: string;
  /** Every version of the message, oldest first (chat.update appends). */
  history: { text: string; blocks?: Block[] }[];
  deleted?: boolean;
}

export interface SlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  /** User ids of the members (the bot's user id when the bot was invited). */
  members: Set<string>;
}

/**
 * The scopes each Web API method needs (docs.slack.dev/reference/methods/<method>, "Required
 * scopes"), and each event subscription (…/reference/events/<event>). Written from Slack's
 * reference, not from the code under test.
 */
export const METHOD_SCOPES: Record<string, string | null> = {
  "auth.test": null,
  "chat.postMessage": "chat:write",
  "chat.update": "chat:write",
  "chat.delete": "chat:write",
  "chat.postEphemeral": "chat:write",
  "reactions.add": "reactions:write",
  "reactions.remove": "reactions:write",
  "usergroups.users.list": "usergroups:read",
  "conversations.info": "channels:read",
};

export const EVENT_SCOPES: Record<string, string> = {
  "message.channels": "channels:history",
  "message.groups": "groups:history",
  reaction_added: "reactions:read",
  app_mention: "app_mentions:read",
};

/** A bot token as an admin would install it from docs/slack.md: every scope the setup lists. */
export const DEFAULT_SCOPES = [
  "chat:write",
  "channels:history",
  "groups:history",
  "reactions:read",
  "reactions:write",
  "commands",
  "usergroups:read",
];

export const DEFAULT_SUBSCRIPTIONS = ["message.channels", "message.groups", "reaction_added"];

/** Users, channels, messages and reactions of the double's one workspace. */
export class Workspace {
  readonly messages: SlackMessage[] = [];
  readonly channels = new Map<string, SlackChannel>();
  /** Display name → user id, for @mentions typed in messages. */
  readonly users = new Map<string, string>();
  readonly reactions: { channel: string; ts: string; name: string; user: string }[] = [];
  readonly userGroups = new Map<string, string[]>();
  readonly botUserId: string;
  /** Slack stamps events with its own clock: the time now (oikos treats older events as history). */
  #clock = Math.floor(Date.now() / 1000);
  #seq = 0;

  constructor(botUserId: string, botName: string) {
    this.botUserId = botUserId;
    this.users.set(botName, botUserId);
  }

  /** Declares a channel (members: user ids; the bot is a member unless `botIsMember` is false). */
  addChannel(
    id: string,
    options: {
      name?: string;
      isPrivate?: boolean;
      isArchived?: boolean;
      members?: string[];
      botIsMember?: boolean;
    } = {},
  ): SlackChannel {
    const channel: SlackChannel = {
      id,
      name: options.name ?? id.toLowerCase(),
      isPrivate: options.isPrivate ?? false,
      isArchived: options.isArchived ?? false,
      members: new Set([
        ...(options.members ?? []),
        ...(options.botIsMember === false ? [] : [this.botUserId]),
      ]),
    };
    this.channels.set(id, channel);
    return channel;
  }

  /** The channel a person acts in: declared, or (for brevity in tests) a public one the bot is in. */
  channelForUser(id: string, user: string): SlackChannel {
    const channel = this.channels.get(id) ?? this.addChannel(id);
    channel.members.add(user);
    return channel;
  }

  message(channel: string, ts: string): SlackMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts && !m.deleted);
  }

  nextTs(): string {
    this.#seq++;
    return `${this.#clock + this.#seq}.${String(this.#seq).padStart(6, "0")}`;
  }

  get eventTime(): number {
    return this.#clock + this.#seq;
  }
}
