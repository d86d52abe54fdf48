import type { Card } from "../core/card.ts";
import { cardToText } from "../core/card.ts";
import { inlineMarkdownToHtml, markdownToHtml } from "./markdown-html.ts";

/** HTML for Matrix clients (org.matrix.custom.html); the plain body is cardToText. */
export function cardToHtml(card: Card): string {
  const parts: string[] = [];
  const badge = card.badge ? ` — <em>${escapeHtml(card.badge)}</em>` : "";
  parts.push(`<p><strong>${escapeHtml(card.title)}</strong>${badge}</p>`);
  if (card.lines.length > 0)
    parts.push(`<ul>${card.lines.map((l) => `<li>${inline(l)}</li>`).join("")}</ul>`);
  if (card.preview) {
    const { label, text } = card.preview;
    // Collapsed: the operator opens it. Every character of the preview is escaped, never markup.
    parts.push(
      text !== undefined
        ? `<details><summary>${escapeHtml(label)}</summary><pre><code>${escapeHtml(text)}</code></pre></details>`
        : `<p><em>${escapeHtml(label)}</em></p>`,
    );
  }
  if (card.output) {
    const omitted =
      card.output.omittedLines > 0 ? ` (last lines; ${card.output.omittedLines} earlier lines hidden)` : "";
    parts.push(
      `<details><summary>${escapeHtml(card.output.label)}${escapeHtml(omitted)}</summary><pre><code>${escapeHtml(card.output.tail)}</code></pre></details>`,
    );
  }
  if (card.status) parts.push(`<p><strong>${inline(card.status)}</strong></p>`);
  if (card.hint) parts.push(`<p><em>${inline(card.hint)}</em></p>`);
  const users = card.mentions?.users ?? [];
  if (users.length > 0) parts.push(`<p>cc ${users.map(pill).join(" ")}</p>`);
  return parts.join("");
}

/** A user pill: clients render a matrix.to link to a user id as the person's name. */
function pill(user: string): string {
  return `<a href="https://matrix.to/#/${escapeHtml(user)}">${escapeHtml(user)}</a>`;
}

/** An agent message (Markdown) as HTML. */
export function textToHtml(text: string): string {
  return markdownToHtml(text);
}

export function plainBody(card: Card): string {
  return cardToText(card);
}

/** Card text: inline Markdown (`code`, **bold**, links), everything else escaped. */
function inline(text: string): string {
  return inlineMarkdownToHtml(text);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
