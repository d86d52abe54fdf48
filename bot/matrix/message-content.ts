import type { Outbound } from "../core/chat-adapter.ts";
import { cardToHtml, plainBody, textToHtml } from "./card-html.ts";

// Event contents built by hand: matrix-bot-sdk has no thread or edit helpers, and its reply
// helper still emits the <mx-reply> fallback that the spec removed.

export type MessageContent = {
  msgtype: "m.text" | "m.notice";
  body: string;
  format: "org.matrix.custom.html";
  formatted_body: string;
  "m.mentions": { user_ids?: string[] };
};

/**
 * The bot speaks in m.notice (clients and other bots know not to answer it), HTML + plain, except
 * a card that calls someone: the spec's default push rules put `.m.rule.suppress_notices` before
 * the mention rules, so a notice notifies nobody however it mentions them. Such a card (an
 * approval, a question, a reminder, an expiry, an alert waiting for a decision) is `m.text`; the
 * people it calls are in `m.mentions` (what notifies them) and as pills in the HTML.
 */
export function messageContent(message: Outbound): MessageContent {
  const body = "card" in message ? plainBody(message.card) : message.text;
  const html = "card" in message ? cardToHtml(message.card) : textToHtml(message.text);
  const mentions = "card" in message ? (message.card.mentions?.users ?? []) : [];
  return {
    msgtype: mentions.length > 0 ? "m.text" : "m.notice",
    body,
    format: "org.matrix.custom.html",
    formatted_body: html,
    "m.mentions": mentions.length > 0 ? { user_ids: mentions } : {},
  };
}

/** A message in a thread; `latest` is the newest event in the thread (the fallback reply target). */
export function threadedContent(message: Outbound, root: string, latest: string): Record<string, unknown> {
  return {
    ...messageContent(message),
    "m.relates_to": {
      rel_type: "m.thread",
      event_id: root,
      is_falling_back: true,
      "m.in_reply_to": { event_id: latest },
    },
  };
}

/**
 * An edit: the fallback body is marked with `* `, the real content sits in m.new_content (with
 * its mentions and msgtype); the edit itself is a notice that mentions nobody, so editing a card
 * never notifies again (also on a homeserver older than `.m.rule.suppress_edits`).
 */
export function editContent(target: string, message: Outbound): Record<string, unknown> {
  const next = messageContent(message);
  return {
    msgtype: "m.notice",
    body: `* ${next.body}`,
    format: "org.matrix.custom.html",
    formatted_body: `* ${next.formatted_body}`,
    "m.mentions": {},
    "m.new_content": next,
    "m.relates_to": { rel_type: "m.replace", event_id: target },
  };
}

export function reactionContent(target: string, key: string): Record<string, unknown> {
  return { "m.relates_to": { rel_type: "m.annotation", event_id: target, key } };
}
