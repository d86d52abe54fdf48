import { composePreviewText } from "../../../policy/preview/compose-text.ts";
import type { OutcomeCheck, PlanPreview, PreviewKind } from "../../../policy/preview/types.ts";
import { type CardPreview, clock } from "../card.ts";

/** The most of a preview a card carries (every part keeps at least one line; the rules cap it too). */
export const CARD_PREVIEW_CHARS = 3_000;
/** The most of a preview a message in the thread carries (Slack's "Show preview", `!preview`). */
export const FULL_PREVIEW_CHARS = 12_000;

const KIND_LABEL: Record<PreviewKind, string> = {
  file_diff: "file diff",
  packages: "packages",
  containers: "containers",
  service: "service",
  guest: "guest",
  storage: "storage",
};

/** Where an approval's full preview is, one command away. */
export function fullPreviewCommand(approvalId: string): string {
  return `!preview ${approvalId}`;
}

/**
 * What an approval card shows of its preview (issues #15, #37): what it is and when it was computed,
 * every part of the line — in full while they fit, else each in one line with where the full preview
 * is — and plainly the parts oikos cannot show; or honestly that there is none and why.
 */
export function cardPreviewOf(preview: PlanPreview, approvalId?: string): CardPreview {
  const at = clock(new Date(preview.computedAt));
  if (preview.status === "unavailable") return { label: `no preview available: ${preview.reason} (${at})` };
  if (preview.status === "failed")
    return { label: `no preview: computing it failed (${preview.reason}), ${at}` };
  const more = approvalId
    ? `full preview: \`${fullPreviewCommand(approvalId)}\``
    : "the full preview is too long for the card";
  const { text, shortened } = composePreviewText(preview, CARD_PREVIEW_CHARS, more);
  const unseen = preview.notPreviewed.length;
  const notes = [
    ...(unseen > 0 ? [`oikos cannot show ${unseen} part(s) of this line`] : []),
    ...(shortened || preview.truncated
      ? [approvalId ? `some parts in one line — ${more}` : "cut to fit"]
      : []),
  ];
  return {
    label: `preview (${KIND_LABEL[preview.kind]}), computed ${at}${notes.length > 0 ? `; ${notes.join("; ")}` : ""}`,
    text,
  };
}

/** The preview posted in the thread (Slack's "Show preview", `!preview`): Markdown with the text as a code block. */
export function previewMessage(preview: PlanPreview, command: string, target: string): string {
  const section =
    preview.status === "available"
      ? {
          label: cardPreviewOf(preview).label.replace(/; (some parts in one line|cut to fit).*$/, ""),
          text: composePreviewText(preview, FULL_PREVIEW_CHARS, "too long to show here").text,
        }
      : cardPreviewOf(preview);
  const head = `Preview of \`${oneLine(command)}\` on \`${target}\` — ${section.label}`;
  if (section.text === undefined) return head;
  // A fence longer than any backtick run in the text, so the text cannot close it.
  const longest = Math.max(2, ...[...section.text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${head}\n${fence}\n${section.text}\n${fence}`;
}

const OUTCOME_HEAD: Record<OutcomeCheck["status"], string> = {
  matches: "🔎 outcome matches the preview",
  differs: "⚠️ outcome differs from the preview",
  unchecked: "outcome not compared with the preview",
};

/** After the run: what the comparison with the preview found, one line per expectation. */
export function outcomeLines(checks: readonly OutcomeCheck[] | null): string[] {
  if (!checks) return [];
  return checks.map((check) => `${OUTCOME_HEAD[check.status]}: ${check.detail}`);
}

function oneLine(command: string): string {
  const line = command.replace(/\s*\n\s*/g, " ⏎ ").replace(/`/g, "ʼ");
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
