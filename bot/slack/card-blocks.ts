import type { Card } from "../core/card.ts";
import { cardToText } from "../core/card.ts";

/** Block Kit JSON for Slack (header/section/context/actions); `text` is the fallback for notifications. */
export interface SlackRendering {
  text: string;
  blocks: Record<string, unknown>[];
}

const SECTION_LIMIT = 2900;

export function cardToBlocks(card: Card): SlackRendering {
  const blocks: Record<string, unknown>[] = [];
  const badge = card.badge ? ` — _${escapeMrkdwn(card.badge)}_` : "";
  blocks.push(section(`*${escapeMrkdwn(card.title)}*${badge}`));
  if (card.lines.length > 0) blocks.push(section(card.lines.map((l) => `• ${escapeMrkdwn(l)}`).join("\n")));
  if (card.output) {
    const omitted =
      card.output.omittedLines > 0 ? ` (last lines; ${card.output.omittedLines} earlier lines hidden)` : "";
    blocks.push(context(`${escapeMrkdwn(card.output.label)}${omitted}`));
    blocks.push(section(`\`\`\`${escapeMrkdwn(card.output.tail).replace(/```/g, "ʼʼʼ")}\`\`\``));
  }
  if (card.status) blocks.push(context(escapeMrkdwn(card.status)));
  if (card.actions?.length) {
    blocks.push({
      type: "actions",
      block_id: "oikos_decision",
      elements: card.actions.map((action) => ({
        type: "button",
        text: { type: "plain_text", text: action.label.slice(0, 75), emoji: true },
        action_id: `oikos:${action.id}`,
        value: action.id,
        ...(action.style ? { style: action.style } : {}),
      })),
    });
  }
  if (card.hint)
    blocks.push(
      context(escapeMrkdwn(card.hint.replace(/React ✅ to approve, ❌ to deny/g, "Use the buttons"))),
    );
  return { text: cardToText(card).slice(0, 3000), blocks };
}

export function textToBlocks(text: string): SlackRendering {
  return { text: text.slice(0, 3000), blocks: [section(escapeMrkdwn(text))] };
}

function section(text: string): Record<string, unknown> {
  const clipped = text.length > SECTION_LIMIT ? `${text.slice(0, SECTION_LIMIT)}…` : text;
  return { type: "section", text: { type: "mrkdwn", text: clipped } };
}

function context(text: string): Record<string, unknown> {
  return { type: "context", elements: [{ type: "mrkdwn", text: text.slice(0, 2000) }] };
}

/** Slack asks for &, < and > to be escaped in mrkdwn; backticks stay (code spans). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
