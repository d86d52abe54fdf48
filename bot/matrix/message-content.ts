import type { Outbound } from "../core/chat-adapter.ts";
import { cardToHtml, plainBody, textToHtml } from "./card-html.ts";

// Event contents built by hand: matrix-bot-sdk has no thread or edit helpers, and its reply
// helper still emits the <mx-reply> fallback that the spec removed.

export type NoticeContent = {
  msgtype: "m.notice";
  body: string;
  format: "org.matrix.custom.html";
  formatted_body: string;
  "m.mentions": { user_ids?: string[] };
};

/**
 * The bot speaks in m.notice (clients and other bots know not to answer it), HTML + plain. The
 * people a card calls are in `m.mentions` (what notifies them) and as pills in the HTML.
 */
export function noticeContent(message: Outbound): NoticeContent {
  const body = "card" in message ? plainBody(message.card) : message.text;
  const html = "card" in message ? cardToHtml(message.card) : textToHtml(message.text);
  const mentions = "card" in message ? (message.card.mentions?.users ?? []) : [];
  return {
    msgtype: "m.notice",
    body,
    format: "org.matrix.custom.html",
    formatted_body: html,
    "m.mentions": mentions.length > 0 ? { user_ids: mentions } : {},
  };
}

/** A message in a thread; `latest` is the newest event in the thread (the fallback reply target). */
export function threadedContent(message: Outbound, root: string, latest: string): Record<string, unknown> {
  return {
    ...noticeContent(message),
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
 * its mentions); the edit itself mentions nobody, so editing a card never notifies again.
 */
export function editContent(target: string, message: Outbound): Record<string, unknown> {
  const next = noticeContent(message);
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
