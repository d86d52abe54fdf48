/** Consent choices a card offers as buttons (Slack) or reactions (Matrix, terminal). */
/** `grant`: approve and give the same command a standing grant (♾️, issue #32). */
export type CardAction = "approve" | "grant" | "deny" | "rollback" | "preview" | `option:${number}`;

/**
 * A platform-free card. Lines are plain text in which `backticks` mark code; each adapter turns
 * the card into its own format (Matrix HTML + plain body, Slack Block Kit, terminal text).
 */
export interface Card {
  kind: "plan" | "approval" | "question" | "summary" | "notice";
  title: string;
  /** Short label next to the title ("needs approval", "🔴 destructive"). */
  badge?: string;
  lines: string[];
  /**
   * A plan preview (issue #15): what the command would change, shown collapsed (Matrix
   * `<details>`, Slack a "Show preview" button that posts `text` in the thread, the terminal below
   * the card). `label` always says what it is and when it was computed, or that there is none.
   */
  preview?: CardPreview;
  /** Output shown collapsed: only the tail, with how much was left out. */
  output?: { label: string; tail: string; omittedLines: number };
  /** The decision, once there is one ("approved by @alice via ✅ at 14:02"). */
  status?: string;
  /** How to answer, in words: the fallback for clients without buttons or reactions. */
  hint?: string;
  /**
   * The exact words an operator types in this card's thread to approve it (a destructive approval).
   * A chat without threads of its own (the terminal) tells how to send them into this thread.
   */
  phrase?: string;
  /** Buttons (Slack) while the card is undecided; empty once decided. */
  actions?: { id: CardAction; label: string; style?: "primary" | "danger" }[];
  /**
   * Names this card's one post (the renderer's claim key). Where the platform can (Matrix: the
   * send's transaction id), posting again under the same key returns the first post instead of a
   * second message: a process killed after posting a card but before recording it, restarted,
   * posts it again as the same event, so a ✅ on it still answers the card.
   */
  postKey?: string;
  /** Reactions the bot adds to its own card so the operator taps an existing one. */
  reactions?: string[];
  /** Who the card calls: the platform notifies them (Matrix m.mentions + pills, Slack <@U…>). */
  mentions?: CardMentions;
}

export interface CardPreview {
  /** "preview (file diff), computed 14:02 UTC" or "no preview available: <why>". */
  label: string;
  /** The redacted, size-capped preview; absent when there is none to show. */
  text?: string;
}

/** Platform user ids, and (Slack) user groups, a card mentions. */
export interface CardMentions {
  users: string[];
  groups: string[];
}

export function hasMentions(card: Card): card is Card & { mentions: CardMentions } {
  return (card.mentions?.users.length ?? 0) + (card.mentions?.groups.length ?? 0) > 0;
}

/** Normalises a reaction key: strips variation selectors and skin tones, maps `:+1:` style names. */
export function reactionKind(key: string): "approve" | "deny" | null {
  const k = key
    .trim()
    .replace(/[\u{fe0f}\u{1f3fb}-\u{1f3ff}]/gu, "")
    .replace(/^:|:$/g, "");
  const named: Record<string, string> = {
    "+1": "+1",
    thumbsup: "+1",
    white_check_mark: "✅",
    heavy_check_mark: "✔",
    "-1": "-1",
    thumbsdown: "-1",
    x: "❌",
  };
  const norm = named[k] ?? k;
  if (["✅", "👍", "+1", "✔", "☑"].includes(norm)) return "approve";
  if (["❌", "👎", "-1", "✖"].includes(norm)) return "deny";
  return null;
}

/** The card as plain text: the terminal, and the fallback body everywhere else. */
export function cardToText(card: Card): string {
  const head = card.badge ? `${card.title} — ${card.badge}` : card.title;
  const out = [head, ...card.lines.map((l) => `  ${l}`)];
  if (card.output) {
    const omitted =
      card.output.omittedLines > 0 ? ` (last lines; ${card.output.omittedLines} earlier lines hidden)` : "";
    out.push(`  ${card.output.label}${omitted}:`);
    for (const line of card.output.tail.split("\n")) out.push(`    ${line}`);
  }
  if (card.status) out.push(`  ${card.status}`);
  if (card.hint) out.push(`  ${card.hint}`);
  if (hasMentions(card)) out.push(`  cc ${[...card.mentions.users, ...card.mentions.groups].join(" ")}`);
  // Below the card: the decision and how to answer stay on top, the preview (often long) follows.
  if (card.preview) {
    const { label, text } = card.preview;
    out.push(text === undefined ? `  ${label}` : `  ${label}:`);
    if (text !== undefined) for (const line of text.split("\n")) out.push(`    │ ${line}`);
  }
  return out.join("\n");
}

/** Keeps the last `maxLines` lines (and at most `maxChars`) of a long output. */
export function tailOf(text: string, maxLines = 15, maxChars = 1500): { tail: string; omittedLines: number } {
  const lines = text.replace(/\s+$/, "").split("\n");
  let kept = lines.slice(-maxLines);
  while (kept.length > 1 && kept.join("\n").length > maxChars) kept = kept.slice(1);
  let tail = kept.join("\n");
  if (tail.length > maxChars) tail = `…${tail.slice(-maxChars)}`;
  return { tail, omittedLines: lines.length - kept.length };
}

/** "14:02 UTC" — decisions show the time of day; the audit log keeps the full timestamp. */
export function clock(date: Date): string {
  return `${date.toISOString().slice(11, 16)} UTC`;
}
