import { redact } from "../../policy/redact.ts";
import type { Card } from "./card.ts";
import type { ChatAdapter, Outbound } from "./chat-adapter.ts";

/** Every text a card or message carries, passed through policy redact. */
export function redactOutbound(message: Outbound): Outbound {
  if ("text" in message) return { text: redact(message.text) };
  const card: Card = {
    ...message.card,
    title: redact(message.card.title),
    lines: message.card.lines.map(redact),
    ...(message.card.badge !== undefined ? { badge: redact(message.card.badge) } : {}),
    ...(message.card.preview
      ? {
          preview: {
            label: redact(message.card.preview.label),
            ...(message.card.preview.text !== undefined ? { text: redact(message.card.preview.text) } : {}),
          },
        }
      : {}),
    ...(message.card.output
      ? {
          output: {
            ...message.card.output,
            label: redact(message.card.output.label),
            tail: redact(message.card.output.tail),
          },
        }
      : {}),
    ...(message.card.actions
      ? { actions: message.card.actions.map((action) => ({ ...action, label: redact(action.label) })) }
      : {}),
    ...(message.card.status !== undefined ? { status: redact(message.card.status) } : {}),
    ...(message.card.hint !== undefined ? { hint: redact(message.card.hint) } : {}),
  };
  return { card };
}

/** The adapter with every post and edit redacted: the one door chat text leaves the process by. */
export function redactingAdapter(adapter: ChatAdapter): ChatAdapter {
  return new Proxy(adapter, {
    get(target, property) {
      if (property === "post") {
        return (room: string, thread: string | null, message: Outbound) =>
          target.post(room, thread, redactOutbound(message));
      }
      if (property === "answer" && target.answer) {
        const answer = target.answer.bind(target);
        return (...[command, message, visibility]: Parameters<NonNullable<ChatAdapter["answer"]>>) =>
          answer(command, redactOutbound(message), visibility);
      }
      if (property === "edit") {
        return (ref: Parameters<ChatAdapter["edit"]>[0], message: Outbound) =>
          target.edit(ref, redactOutbound(message));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The adapters by platform; whatever is registered is wrapped by `redactingAdapter`. */
export class RedactingAdapterMap extends Map<string, ChatAdapter> {
  override set(platform: string, adapter: ChatAdapter): this {
    return super.set(platform, redactingAdapter(adapter));
  }
}
