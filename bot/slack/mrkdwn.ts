import MarkdownIt, { type Token } from "markdown-it";

/**
 * Markdown (what the agent writes, and the backticks our own card lines use) as Slack mrkdwn,
 * rendered from markdown-it's token stream: **bold** → *bold*, _em_/*em* → _em_, ~~s~~ → ~s~,
 * [label](url) → <url|label>, headings bold, lists with •/1., quotes, fenced code, tables as a
 * code block. Every piece of text is escaped (&, <, >), so nothing the agent or a command prints
 * can form a mention, a channel link or a broadcast (<!channel>): only the links markdown-it
 * parsed, with an http(s) or mailto address, become Slack links.
 */

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
// Only addresses with a scheme become links: a host name in the text stays the text typed.
markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false });

/** Slack asks for &, < and > to be escaped everywhere it parses text. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A whole Markdown document (an agent message) as mrkdwn. */
export function markdownToMrkdwn(source: string): string {
  return new BlockRenderer().render(markdown.parse(source, {}));
}

/** One line of card text: inline Markdown only (a leading `#` or `1.` stays text). */
export function inlineMarkdownToMrkdwn(source: string): string {
  const [inline] = markdown.parseInline(source, {});
  return renderInline(inline?.children ?? []);
}

const LINK_SCHEMES = /^(https?:|mailto:)/i;
const RULE = "──────────";

function renderInline(tokens: Token[]): string {
  let out = "";
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    switch (token.type) {
      case "text":
      case "text_special":
      case "html_inline":
        out += escapeMrkdwn(token.content);
        break;
      case "softbreak":
      case "hardbreak":
        out += "\n";
        break;
      case "code_inline":
        out += codeSpan(token.content);
        break;
      case "strong_open":
      case "strong_close":
        out += "*";
        break;
      case "em_open":
      case "em_close":
        out += "_";
        break;
      case "s_open":
      case "s_close":
        out += "~";
        break;
      case "link_open": {
        const close = findClose(tokens, i, "link_open", "link_close");
        const href = String(token.attrGet("href") ?? "");
        // An autolink or a bare URL shows its own address; only [label](url) has a label.
        const label =
          token.markup === "autolink" || token.markup === "linkify"
            ? ""
            : plainText(tokens.slice(i + 1, close));
        out += link(href, label);
        i = close;
        break;
      }
      case "image":
        out += link(String(token.attrGet("src") ?? ""), plainText(token.children ?? []) || "image");
        break;
      default:
        out += escapeMrkdwn(token.content);
    }
  }
  return out;
}

/** Inline tokens as unformatted text (link labels, table cells). */
function plainText(tokens: Token[]): string {
  return tokens
    .map((t) =>
      t.type === "softbreak" || t.type === "hardbreak"
        ? " "
        : t.type === "image"
          ? plainText(t.children ?? [])
          : t.content,
    )
    .join("");
}

function codeSpan(content: string): string {
  // A backtick cannot be escaped inside a Slack code span; a look-alike keeps the span whole.
  return `\`${escapeMrkdwn(content.replace(/`/g, "ˋ"))}\``;
}

function link(href: string, label: string): string {
  if (!LINK_SCHEMES.test(href)) return escapeMrkdwn(label || href);
  const url = href.replace(/&/g, "&amp;").replace(/</g, "%3C").replace(/>/g, "%3E").replace(/\|/g, "%7C");
  const bare = href.replace(/^mailto:/i, "");
  if (!label || label === href || label === bare) return `<${url}>`;
  return `<${url}|${escapeMrkdwn(label)}>`;
}

function findClose(tokens: Token[], from: number, open: string, close: string): number {
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    if (tokens[i]!.type === open) depth++;
    else if (tokens[i]!.type === close && --depth === 0) return i;
  }
  return tokens.length - 1;
}

/** Block tokens to lines: list markers and quote prefixes applied per line. */
class BlockRenderer {
  readonly #lines: string[] = [];
  readonly #lists: { ordered: boolean; next: number }[] = [];
  #quote = 0;
  /** Set when a quote opens: its first block needs no blank line above it. */
  #quoteOpened = false;
  /** The marker the next line of the current list item starts with ("• ", "3. "), once. */
  #marker: string | undefined;

  render(tokens: Token[]): string {
    for (let i = 0; i < tokens.length; i++) i = this.#block(tokens, i);
    return this.#lines
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }

  #block(tokens: Token[], i: number): number {
    const token = tokens[i]!;
    switch (token.type) {
      case "paragraph_open":
      case "heading_open": {
        const inline = tokens[i + 1];
        const text = renderInline(inline?.children ?? []);
        this.#separate();
        this.#emit(token.type === "heading_open" ? bold(text) : text);
        return i + 2;
      }
      case "bullet_list_open":
      case "ordered_list_open":
        if (this.#lists.length === 0) this.#separate();
        this.#lists.push({
          ordered: token.type === "ordered_list_open",
          next: Number(token.attrGet("start") ?? 1),
        });
        return i;
      case "bullet_list_close":
      case "ordered_list_close":
        this.#lists.pop();
        return i;
      case "list_item_open": {
        const list = this.#lists.at(-1);
        this.#marker = list?.ordered ? `${list.next++}. ` : "• ";
        return i;
      }
      case "blockquote_open":
        this.#separate();
        this.#quote++;
        this.#quoteOpened = true;
        return i;
      case "blockquote_close":
        this.#quote--;
        return i;
      case "fence":
      case "code_block":
        this.#separate();
        this.#code(token.content);
        return i;
      case "hr":
        this.#separate();
        this.#emit(RULE);
        return i;
      case "table_open":
        return this.#table(tokens, i);
      case "inline":
        this.#emit(renderInline(token.children ?? []));
        return i;
      default:
        return i;
    }
  }

  /** A blank line between top-level blocks (lists stay tight). */
  #separate(): void {
    const opened = this.#quoteOpened;
    this.#quoteOpened = false;
    if (opened || this.#lists.length > 0 || this.#lines.length === 0) return;
    this.#lines.push(this.#quote > 0 ? ">" : "");
  }

  #emit(text: string): void {
    const depth = this.#lists.length;
    const indent = "    ".repeat(Math.max(0, depth - 1));
    const quote = "> ".repeat(this.#quote);
    for (const [n, line] of text.split("\n").entries()) {
      let head = depth > 0 ? `${indent}   ` : "";
      if (n === 0 && this.#marker !== undefined) {
        head = indent + this.#marker;
        this.#marker = undefined;
      }
      this.#lines.push(`${quote}${head}${line}`);
    }
  }

  #code(content: string): void {
    const quote = "> ".repeat(this.#quote);
    const body = escapeMrkdwn(content.replace(/\n$/, "").replace(/```/g, "ʼʼʼ"));
    if (this.#marker !== undefined) this.#emit("");
    this.#lines.push(`${quote}\`\`\``);
    for (const line of body.split("\n")) this.#lines.push(`${quote}${line}`);
    this.#lines.push(`${quote}\`\`\``);
  }

  /** A table as aligned columns in a code block: Slack has no tables. */
  #table(tokens: Token[], open: number): number {
    const close = findClose(tokens, open, "table_open", "table_close");
    const rows: string[][] = [];
    let row: string[] = [];
    for (let i = open; i < close; i++) {
      const t = tokens[i]!;
      if (t.type === "tr_open") row = [];
      else if (t.type === "inline") row.push(plainText(t.children ?? []));
      else if (t.type === "tr_close") rows.push(row);
    }
    const widths = rows.reduce<number[]>(
      (w, r) => r.map((cell, c) => Math.max(w[c] ?? 0, [...cell].length)),
      [],
    );
    const lines = rows.map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join("  ")
        .trimEnd(),
    );
    if (lines.length > 1) lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("  "));
    this.#separate();
    this.#code(`${lines.join("\n")}\n`);
    return close;
  }
}

function bold(text: string): string {
  return text.trim() ? `*${text.replace(/\*/g, "")}*` : text;
}
