import type { AvailablePreview } from "./types.ts";

/**
 * The text of a preview within a size, never dropping a part (issue #37): each part in the order of
 * the line, in full while the rest still fits one line each; past that, each remaining part keeps one
 * line — its summary and where the full preview is. A notice that a part is not previewed is always
 * kept: what oikos cannot show is said as plainly as what it shows.
 */

export const HEADER =
  "Each command is shown against the target as it is when it runs (nothing earlier in the line changes what it acts on).";

export function notPreviewedText(command: string, reason: string): string {
  return `$ ${command}\n(not previewed — oikos cannot show what this part changes: ${reason})`;
}

interface Block {
  full: string;
  line: string;
}

/** One line at most this long for a part that does not fit (its command and summary cut). */
const LINE_CHARS = 240;

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s*\n\s*/g, " ⏎ ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function blocksOf(preview: Pick<AvailablePreview, "parts" | "notPreviewed">, more: string): Block[] {
  const ordered: { at: number; order: number; block: Block }[] = [];
  preview.parts.forEach((part, order) => {
    const summary = part.summary ?? part.text.split("\n")[0] ?? "";
    ordered.push({
      at: part.statement ?? order,
      order,
      block: {
        full: `$ ${part.command}\n${part.text}`,
        line: `$ ${oneLine(part.command, 80)}: ${oneLine(summary, LINE_CHARS - 100)} — ${more}`,
      },
    });
  });
  preview.notPreviewed.forEach((n, order) => {
    const full = notPreviewedText(n.command, n.reason);
    ordered.push({
      at: n.statement ?? Number.MAX_SAFE_INTEGER,
      order: preview.parts.length + order,
      block: { full, line: oneLine(full, LINE_CHARS + 60) },
    });
  });
  return ordered.sort((a, b) => a.at - b.at || a.order - b.order).map((o) => o.block);
}

/**
 * The preview's text in at most `max` characters where it can be (every part keeps at least its one
 * line, so a line of many parts may pass it). `more` says where the full preview is.
 */
export function composePreviewText(
  preview: Pick<AvailablePreview, "parts" | "notPreviewed">,
  max: number,
  more: string,
): { text: string; shortened: boolean } {
  const blocks = blocksOf(preview, more);
  const head = blocks.length > 1 ? [HEADER] : [];
  const out = [...head];
  let used = head.reduce((sum, line) => sum + line.length + 2, 0);
  let shortened = false;
  for (const [i, block] of blocks.entries()) {
    const rest = blocks.slice(i + 1).reduce((sum, b) => sum + b.line.length + 2, 0);
    if (used + block.full.length + 2 + rest <= max) {
      out.push(block.full);
      used += block.full.length + 2;
    } else {
      out.push(block.line);
      used += block.line.length + 2;
      shortened ||= block.line !== block.full;
    }
  }
  return { text: out.join("\n\n"), shortened };
}
