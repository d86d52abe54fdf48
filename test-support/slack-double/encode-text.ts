/**
 * What Slack does to what a person types before an app sees it (docs.slack.dev "Formatting
 * message text" — "Retrieving messages"): &, < and > become &amp; &lt; &gt;; URLs become <url>;
 * bare domains with a known top-level domain and e-mail addresses are auto-linked as
 * <http://domain|domain> and <mailto:a@b|a@b>; a chosen @mention becomes <@U…>, a #channel
 * <#C…|name>; @here/@channel/@everyone become <!here> etc. The same message's rich_text block
 * carries the structure (text, link, user, channel, broadcast elements).
 */

export interface Directory {
  /** Display names that, typed as @name, become a mention of that user id. */
  users: ReadonlyMap<string, string>;
  /** Channel names that, typed as #name, become a channel link. */
  channels: ReadonlyMap<string, string>;
}

type RichElement =
  | { type: "text"; text: string }
  | { type: "link"; url: string; text?: string }
  | { type: "user"; user_id: string }
  | { type: "channel"; channel_id: string }
  | { type: "broadcast"; range: string };

/** Top-level domains Slack's client links without a scheme (a sample of the real list). */
const LINKED_TLDS = new Set([
  "com",
  "net",
  "org",
  "io",
  "dev",
  "app",
  "co",
  "uk",
  "de",
  "fr",
  "nl",
  "eu",
  "info",
  "biz",
  "me",
  "tv",
  "cloud",
  "ai",
  "sh",
  "xyz",
  "us",
  "ca",
  "ch",
  "at",
  "se",
  "no",
  "fi",
  "dk",
  "pl",
  "it",
  "es",
  "be",
  "jp",
  "au",
  "in",
  "ly",
  "gg",
  "edu",
  "gov",
]);

const TOKEN =
  /(https?:\/\/[^\s<>]+)|([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})|((?:[A-Za-z0-9-]+\.)+([A-Za-z]{2,})(?:\/[^\s<>]*)?)|@([A-Za-z0-9._-]+)|#([a-z0-9_-]+)/g;

/** The text field Slack delivers, and its rich_text block elements. */
export function encodeTyped(typed: string, directory: Directory): { text: string; elements: RichElement[] } {
  let text = "";
  const elements: RichElement[] = [];
  const plain = (s: string) => {
    if (!s) return;
    text += escapeEntities(s);
    const last = elements.at(-1);
    if (last?.type === "text") last.text += s;
    else elements.push({ type: "text", text: s });
  };
  let last = 0;
  for (const match of typed.matchAll(TOKEN)) {
    const [, url, email, domain, tld, name, channel] = match;
    let encoded: { text: string; element: RichElement } | undefined;
    if (url) {
      const clean = url.replace(/[.,;:!?)]+$/, "");
      encoded = { text: `<${escapeEntities(clean)}>`, element: { type: "link", url: clean } };
      if (clean !== url) match[0] = clean;
    } else if (email) {
      encoded = {
        text: `<mailto:${email}|${email}>`,
        element: { type: "link", url: `mailto:${email}`, text: email },
      };
    } else if (domain && tld && LINKED_TLDS.has(tld.toLowerCase())) {
      const clean = domain.replace(/[.,;:!?)]+$/, "");
      encoded = {
        text: `<http://${escapeEntities(clean)}|${escapeEntities(clean)}>`,
        element: { type: "link", url: `http://${clean}`, text: clean },
      };
      if (clean !== domain) match[0] = clean;
    } else if (name && ["here", "channel", "everyone"].includes(name)) {
      encoded = { text: `<!${name}>`, element: { type: "broadcast", range: name } };
    } else if (name && directory.users.has(name)) {
      const id = directory.users.get(name)!;
      encoded = { text: `<@${id}>`, element: { type: "user", user_id: id } };
    } else if (channel && directory.channels.has(channel)) {
      const id = directory.channels.get(channel)!;
      encoded = { text: `<#${id}|${channel}>`, element: { type: "channel", channel_id: id } };
    }
    if (!encoded) continue;
    plain(typed.slice(last, match.index));
    text += encoded.text;
    elements.push(encoded.element);
    last = match.index + match[0].length;
  }
  plain(typed.slice(last));
  return { text, elements };
}

export function escapeEntities(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The rich_text block Slack attaches to a person's message. */
export function richTextBlock(elements: RichElement[], blockId: string): Record<string, unknown> {
  return { type: "rich_text", block_id: blockId, elements: [{ type: "rich_text_section", elements }] };
}

/**
 * Problems with text a bot sends, as Slack would show them: a bare & or <, > that is not part
 * of an entity or a control sequence, and every mention, broadcast or channel link it forms.
 */
export function inspectBotText(text: string): { unescaped: string[]; mentions: string[] } {
  const unescaped: string[] = [];
  const mentions: string[] = [];
  // A > opening a line is the quote marker; anywhere else a bare > or < is unescaped text.
  for (const m of text.matchAll(/<([^<>\n]*)>|&(?!(?:amp|lt|gt);)|(?<!^|\n|^(?:> )+|\n(?:> )+)>|</g)) {
    if (m[1] === undefined) {
      unescaped.push(m[0]);
      continue;
    }
    if (/^[@#!]/.test(m[1])) mentions.push(`<${m[1]}>`);
    else if (!/^(https?:|mailto:)/i.test(m[1])) unescaped.push(`<${m[1]}>`);
  }
  return { unescaped, mentions };
}

/**
 * What a Slack client shows for mrkdwn, as plain text: entities decoded, a link shown as its
 * label (or its address), mentions as @id / #id; the formatting characters stay. Tests read the
 * bot's messages through this, the way an operator reads them.
 */
export function displayed(mrkdwn: string): string {
  return mrkdwn
    .replace(/<([^<>|\n]*)(?:\|([^<>\n]*))?>/g, (_, target: string, label?: string) => {
      if (label !== undefined) return label;
      if (target.startsWith("@") || target.startsWith("#")) return target;
      if (target.startsWith("!")) return `@${target.slice(1).split("^")[0]}`;
      return target.replace(/^mailto:/, "");
    })
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
