import type { Inbound } from "../core/chat-adapter.ts";
import type { RoomEvent } from "./sync-schema.ts";

/**
 * A room event as the chat core's inbound: reactions, and text messages of other users with
 * their thread (a rich reply without a thread joins the thread of the event it answers, found
 * through `threadOf`). Edits, notices, the bot's own messages and other types are not requests.
 */
export function toInbound(
  room: string,
  event: RoomEvent,
  selfId: string,
  threadOf: (eventId: string) => string | undefined,
): Inbound | undefined {
  const base = { platform: "matrix", room, eventId: event.event_id, user: event.sender };
  const rel = event.content["m.relates_to"] as
    | { rel_type?: string; event_id?: string; key?: string; "m.in_reply_to"?: { event_id?: string } }
    | undefined;
  if (event.type === "m.reaction") {
    if (rel?.rel_type !== "m.annotation" || !rel.event_id || typeof rel.key !== "string") return undefined;
    return { ...base, kind: "reaction", target: rel.event_id, key: rel.key };
  }
  if (event.type !== "m.room.message" || event.sender === selfId) return undefined;
  if (event.content.msgtype !== "m.text" || typeof event.content.body !== "string") return undefined;
  if (rel?.rel_type === "m.replace") return undefined;
  let thread: string | null = null;
  if (rel?.rel_type === "m.thread" && rel.event_id) thread = rel.event_id;
  else if (rel?.["m.in_reply_to"]?.event_id) {
    const target = rel["m.in_reply_to"].event_id;
    thread = threadOf(target) ?? target;
  }
  const text = stripReplyFallback(event.content.body);
  return { ...base, kind: "message", messageId: event.event_id, thread, text };
}

/** Older clients quote the replied-to message as "> " lines before the reply. */
function stripReplyFallback(body: string): string {
  const lines = body.split("\n");
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith(">")) i++;
  if (i > 0 && lines[i] === "") i++;
  return lines.slice(i).join("\n").trim() || body.trim();
}
