import type { ApproverGroup } from "../../policy/quorum.ts";
import type { PostedMessageRef } from "../../store/chat-cards.ts";
import type { Card, CardAction } from "./card.ts";

/** Where a message lives on a platform: enough to edit it, react to it or reply to it. */
export type MessageRef = PostedMessageRef;

/** What the bot says: a card (rendered per platform) or plain text. */
export type Outbound = { card: Card } | { text: string };

export type { CardAction } from "./card.ts";

interface InboundBase {
  platform: string;
  room: string;
  /** Platform event id: the dedupe key (Matrix event_id, Slack event_id / trigger_id). */
  eventId: string;
  user: string;
}

/**
 * A room event turned platform-free. `thread` is the root of the thread the message was posted
 * in, or null for a top-level message (which starts a session rooted at its own id).
 */
export type Inbound =
  | (InboundBase & {
      kind: "message";
      messageId: string;
      thread: string | null;
      text: string;
      /**
       * false when the platform starts tasks only from messages addressed to the bot (Slack's
       * SLACK_REQUIRE_MENTION) and this one is not: it continues a session's thread, starts none.
       */
      addressed?: boolean;
    })
  | (InboundBase & { kind: "reaction"; target: string; key: string })
  | (InboundBase & { kind: "button"; target: string; action: CardAction })
  | (InboundBase & { kind: "command"; thread: string | null; text: string });

/** Who sees the answer to a command: only its sender (where the platform can) or the room. */
export type AnswerVisibility = "private" | "room";

/** Called by an adapter for every inbound event; resolves when the event is durably handled. */
export type InboundSink = (event: Inbound) => Promise<void>;

/**
 * The port every chat platform implements. Adapters translate; all decisions (who may do what,
 * dedupe, consent, rendering content) live in the platform-free core.
 */
export interface ChatAdapter {
  readonly platform: string;
  /** Cards get buttons here (Slack): the bot adds no consent reactions to its own cards. */
  readonly prefersButtons?: boolean;
  /** The bot's own user id on this platform (its own reactions and messages are ignored). */
  readonly selfId: string;
  start(sink: InboundSink): Promise<void>;
  stop(): Promise<void>;
  /** Posts in the room; in `thread` when given (a reply in that thread). */
  post(room: string, thread: string | null, message: Outbound): Promise<MessageRef>;
  /** Replaces the content of a message the bot posted. */
  edit(ref: MessageRef, message: Outbound): Promise<void>;
  /**
   * Answers a command event where the platform has its own way back (Slack: the slash command's
   * response_url; `private` is ephemeral, seen only by the sender). Without it the core posts
   * the answer in the room.
   */
  answer?(
    command: Inbound & { kind: "command" },
    message: Outbound,
    visibility: AnswerVisibility,
  ): Promise<void>;
  /** Adds the bot's own reaction to a message (the consent choices on a card). */
  react(ref: MessageRef, key: string): Promise<void>;
  /** "The agent is working" indicator, where the platform has one. */
  typing?(room: string, active: boolean): Promise<void>;
  /** Room-level permission the platform knows (Matrix power level); undefined when it has none. */
  powerLevel?(room: string, user: string): Promise<number | undefined>;
  /** Membership of a platform user group (Slack S…), for operators by group; ids are checked first. */
  isInUserGroup?(user: string, group: string): Promise<boolean>;
  /**
   * The members of an approver group of approvals.rules (issue #32) in `room`, read from the
   * platform when someone decides (kept a short while); undefined when the group is not this
   * platform's or the platform cannot tell, and then nobody gets in through it.
   */
  approverGroupMembers?(room: string, group: ApproverGroup): Promise<readonly string[] | undefined>;
  /** A link that opens a thread (its root message), for task listings; undefined where there is none. */
  threadLink?(room: string, thread: string): string | undefined;
}
