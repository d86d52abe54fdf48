import { randomBytes } from "node:crypto";
import type { Card, CardAction } from "../core/card.ts";
import { cardToText } from "../core/card.ts";
import { escapeMrkdwn, inlineMarkdownToMrkdwn, markdownToMrkdwn } from "./mrkdwn.ts";
import { splitMrkdwn, truncateGraphemes, truncateMrkdwn } from "./split-mrkdwn.ts";

/** One Slack message: Block Kit blocks and the `text` fallback (notifications, screen readers). */
export interface SlackRendering {
  text: string;
  blocks: Record<string, unknown>[];
}

/**
 * Block Kit's limits (https://docs.slack.dev/reference/block-kit/blocks): section text at most
 * 3,000 characters, context elements 2,000, button labels 75, 50 blocks a message; and Slack
 * refuses a message whose blocks hold about 12,000 characters in all (msg_blocks_too_long, seen
 * from 11,300), so a message carries at most MESSAGE_CHARS. The fallback `text` stays under the
 * 4,000 characters past which chat.postMessage answers msg_too_long.
 */
export const LIMITS = {
  section: 2_900,
  context: 1_900,
  button: 75,
  blocks: 45,
  messageChars: 9_000,
  fallback: 2_900,
} as const;

const CONTINUED_BELOW = "⬇ continued in the next message";

/**
 * A card as Slack messages: usually one; when its content exceeds one message, the first holds
 * the title, as much content as fits, the status, the hint and the buttons (it is the card that
 * clicks and edits address), and the rest follow as "continued" messages. Every version gets
 * fresh block ids, so Slack never keeps a previous version's button state.
 */
export function cardToMessages(card: Card, scale = 1): SlackRendering[] {
  const budget = budgetFor(scale);
  const nonce = randomBytes(4).toString("hex");
  const badge = card.badge ? ` — _${escapeMrkdwn(card.badge)}_` : "";
  const title = section(`*${escapeMrkdwn(card.title)}*${badge}`);
  const content: Record<string, unknown>[] = [];
  if (card.lines.length > 0) {
    const lines = card.lines.map((l) => `• ${inlineMarkdownToMrkdwn(l)}`).join("\n");
    content.push(...sections(lines, budget));
  }
  if (card.output) {
    const omitted =
      card.output.omittedLines > 0 ? ` (last lines; ${card.output.omittedLines} earlier lines hidden)` : "";
    content.push(context(`${escapeMrkdwn(card.output.label)}${omitted}`));
    const output = escapeMrkdwn(card.output.tail.replace(/```/g, "ʼʼʼ"));
    content.push(...sections(`\`\`\`\n${output}\n\`\`\``, budget));
  }
  const tail: Record<string, unknown>[] = [];
  // The preview itself is not in the card: its label is, and "Show preview" posts it in the thread.
  if (card.preview) tail.push(context(escapeMrkdwn(card.preview.label)));
  if (card.status) tail.push(context(inlineMarkdownToMrkdwn(card.status)));
  if (card.hint) tail.push(context(inlineMarkdownToMrkdwn(card.hint)));
  const buttons: { id: CardAction; label: string; style?: "primary" | "danger" }[] = [
    ...(card.actions ?? []),
  ];
  if (card.preview?.text !== undefined) buttons.push({ id: "preview", label: "Show preview" });
  if (buttons.length > 0) {
    tail.push({
      type: "actions",
      elements: buttons.map((action) => ({
        type: "button",
        text: { type: "plain_text", text: truncateGraphemes(action.label, LIMITS.button), emoji: true },
        action_id: `oikos:${action.id}`,
        value: action.id,
        ...(action.style ? { style: action.style } : {}),
      })),
    });
  }
  const called = mentionText(card);
  if (called) tail.unshift(section(called));
  const pages = paginate([title, ...content], tail, budget);
  const plain = escapeMrkdwn(
    cardToText({
      ...card,
      mentions: undefined,
      ...(card.preview ? { preview: { label: card.preview.label } } : {}),
    }),
  );
  const fallback = called ? `${plain}\n${called}` : plain;
  return pages.map((blocks, index) => ({
    text: fallbackText(index === 0 ? fallback : textOf(blocks)),
    blocks: withBlockIds(blocks, nonce, index),
  }));
}

/** The people and user groups a card calls, as Slack mentions (ids only: nothing typed forms one). */
function mentionText(card: Card): string {
  const users = (card.mentions?.users ?? []).filter((u) => /^[UW][A-Z0-9]+$/.test(u)).map((u) => `<@${u}>`);
  const groups = (card.mentions?.groups ?? [])
    .filter((g) => /^S[A-Z0-9]+$/.test(g))
    .map((g) => `<!subteam^${g}>`);
  return users.length + groups.length > 0 ? `cc ${[...users, ...groups].join(" ")}` : "";
}

/** Agent or command text (Markdown) as Slack messages, split where it exceeds one. */
export function textToMessages(text: string, scale = 1): SlackRendering[] {
  const budget = budgetFor(scale);
  const nonce = randomBytes(4).toString("hex");
  const mrkdwn = markdownToMrkdwn(text) || escapeMrkdwn(text.trim()) || "…";
  const pages = paginate(sections(mrkdwn, budget), [], budget);
  return pages.map((blocks, index) => ({
    text: fallbackText(textOf(blocks)),
    blocks: withBlockIds(blocks, nonce, index),
  }));
}

/**
 * Content blocks into messages within the block and character budgets; `tail` (status, hint,
 * buttons) closes the first message. Messages after the first open with "continued k/n".
 */
function paginate(
  content: Record<string, unknown>[],
  tail: Record<string, unknown>[],
  budget: Budget,
): Record<string, unknown>[][] {
  const tailChars = tail.reduce((n, b) => n + blockChars(b), 0);
  const pages: Record<string, unknown>[][] = [];
  let page: Record<string, unknown>[] = [];
  let chars = 0;
  // Room for the markers ("continued k/n" above, "continued in the next message" below) and, on the first, the tail.
  const reserve = () => (pages.length === 0 ? tail.length + 1 : 2);
  const reserveChars = () => (pages.length === 0 ? tailChars : 0) + CONTINUED_BELOW.length + 40;
  for (const block of content) {
    const size = blockChars(block);
    const full =
      page.length + 1 + reserve() > LIMITS.blocks || chars + size + reserveChars() > budget.messageChars;
    if (full && page.length > 0) {
      pages.push(page);
      page = [];
      chars = 0;
    }
    page.push(block);
    chars += size;
  }
  pages.push(page);
  if (pages.length === 1) return [[...pages[0]!, ...tail]];
  const last = pages.length - 1;
  return pages.map((blocks, index) => [
    ...(index > 0 ? [context(`_(continued ${index + 1}/${pages.length})_`)] : []),
    ...blocks,
    ...(index < last ? [context(CONTINUED_BELOW)] : []),
    ...(index === 0 ? tail : []),
  ]);
}

interface Budget {
  section: number;
  messageChars: number;
}

/** The limits, or a fraction of them (a message Slack refused as too long goes again smaller). */
function budgetFor(scale: number): Budget {
  return {
    section: Math.floor(LIMITS.section * scale),
    messageChars: Math.floor(LIMITS.messageChars * scale),
  };
}

function sections(mrkdwn: string, budget: Budget): Record<string, unknown>[] {
  return splitMrkdwn(mrkdwn, budget.section).map(section);
}

function section(text: string): Record<string, unknown> {
  return { type: "section", text: { type: "mrkdwn", text, verbatim: true } };
}

function context(text: string): Record<string, unknown> {
  return {
    type: "context",
    elements: [{ type: "mrkdwn", text: truncateMrkdwn(text, LIMITS.context), verbatim: true }],
  };
}

/**
 * The `text` of a message (notifications, screen readers), within its limit. It has no
 * `verbatim` switch like the blocks, so a written @here / @channel / @everyone gets an invisible
 * word joiner: it reads the same and notifies nobody.
 */
function fallbackText(mrkdwn: string): string {
  return truncateMrkdwn(mrkdwn.replace(/@(here|channel|everyone)\b/g, "@\u2060$1"), LIMITS.fallback);
}

/** The mrkdwn the blocks show, one block a line: the fallback of a continued message. */
function textOf(blocks: Record<string, unknown>[]): string {
  return blocks.map(blockText).filter(Boolean).join("\n");
}

function blockText(block: Record<string, unknown>): string {
  const b = block as { text?: { text?: string }; elements?: { text?: string | { text?: string } }[] };
  const parts = [b.text?.text ?? ""];
  for (const e of b.elements ?? []) parts.push(typeof e.text === "string" ? e.text : (e.text?.text ?? ""));
  return parts.filter(Boolean).join(" ");
}

function blockChars(block: Record<string, unknown>): number {
  return blockText(block).length;
}

function withBlockIds(
  blocks: Record<string, unknown>[],
  nonce: string,
  page: number,
): Record<string, unknown>[] {
  return blocks.map((block, i) => ({ ...block, block_id: `oikos-${nonce}-${page}-${i}` }));
}
