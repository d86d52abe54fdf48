import { decodeEmojiShortcodes } from "./emoji-shortcodes.ts";

/**
 * Slack's encoded message text as the plain text the person typed, decoded once at the adapter
 * boundary so the core, consent parsing and the model never see Slack's wire format. Slack
 * escapes &, < and > as entities and wraps links, auto-linked bare domains and e-mail
 * addresses, users, channels and broadcasts in <…> (https://docs.slack.dev/messaging/formatting-message-text):
 *
 *   <http://nas.example.com|nas.example.com>  → nas.example.com   (the label, as typed)
 *   <https://example.com/a>                   → https://example.com/a
 *   <https://example.com|the docs>            → the docs (https://example.com)
 *   <@U123> / <@U123|alice>                   → @U123 / @alice (the bot's own mention is dropped)
 *   <#C123|ops> / <#C123>                     → #ops / #C123
 *   <!here> <!channel> <!everyone>            → @here @channel @everyone
 *   <!subteam^S123|@ops>                      → @ops
 *   <!date^1392734382^{date}|Feb 18, 2014>    → Feb 18, 2014
 *   &amp; &lt; &gt;                           → & < >
 *   :+1: :+1::skin-tone-2: :white_check_mark:  → 👍 👍 ✅   (emoji-shortcodes.ts)
 */
export function decodeSlackText(text: string, options: { selfId?: string } = {}): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(/<([^<>\n]*)>/g)) {
    out += decodeEmojiShortcodes(decodeEntities(text.slice(last, match.index)));
    last = match.index + match[0].length;
    const decoded = decodeSequence(match[1]!, options.selfId);
    if (decoded === null) {
      // The bot's own mention: dropped with the space after it ("@oikos why…" → "why…").
      while (last < text.length && (text[last] === " " || text[last] === "\u00a0")) last++;
      continue;
    }
    out += decoded;
  }
  out += decodeEmojiShortcodes(decodeEntities(text.slice(last)));
  return out.trim();
}

/** True when the encoded text mentions `userId` (`<@U…>` or `<@U…|name>`). */
export function mentionsUser(text: string, userId: string): boolean {
  if (!userId) return false;
  for (const match of text.matchAll(/<@([^|>]+)(?:\|[^>]*)?>/g)) if (match[1] === userId) return true;
  return false;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_, name: string) =>
    name === "amp" ? "&" : name === "lt" ? "<" : ">",
  );
}

/** One <…> sequence as text; null for the bot's own mention. */
function decodeSequence(inner: string, selfId: string | undefined): string | null {
  const bar = inner.indexOf("|");
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : decodeEntities(inner.slice(bar + 1));
  if (target.startsWith("@")) {
    const id = target.slice(1);
    if (selfId && id === selfId) return null;
    return `@${label ?? id}`;
  }
  if (target.startsWith("#")) return `#${label ?? target.slice(1)}`;
  if (target.startsWith("!")) return special(target.slice(1), label);
  const url = decodeEntities(target);
  if (label === undefined || label === url || label === withoutScheme(url)) return label ?? url;
  return `${label} (${url})`;
}

function special(command: string, label: string | undefined): string {
  const [name, id] = command.split("^");
  if (name === "here" || name === "channel" || name === "everyone") return `@${name}`;
  if (name === "subteam") return label ? (label.startsWith("@") ? label : `@${label}`) : `@${id ?? "group"}`;
  return label ?? `@${name}`;
}

function withoutScheme(url: string): string {
  return url.replace(/^(https?:\/\/|mailto:|tel:)/i, "");
}
