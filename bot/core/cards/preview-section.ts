import type { OutcomeCheck, PlanPreview, PreviewKind } from "../../../policy/preview/types.ts";
import { type CardPreview, clock } from "../card.ts";

/** The most of a preview a card carries (the rules cap it too; a card must stay one message). */
export const CARD_PREVIEW_CHARS = 3_000;

const KIND_LABEL: Record<PreviewKind, string> = {
  file_diff: "file diff",
  packages: "packages",
  containers: "containers",
  service: "service",
  guest: "guest",
  storage: "storage",
};

/**
 * What an approval card shows of its preview (issue #15): what it is and when it was computed,
 * the text (collapsed by each platform), or honestly that there is none and why.
 */
export function cardPreviewOf(preview: PlanPreview): CardPreview {
  const at = clock(new Date(preview.computedAt));
  if (preview.status === "unavailable") return { label: `no preview available: ${preview.reason} (${at})` };
  if (preview.status === "failed")
    return { label: `no preview: computing it failed (${preview.reason}), ${at}` };
  const { text, cut } = capped(preview.text, CARD_PREVIEW_CHARS);
  const truncated = preview.truncated || cut ? ", cut to fit" : "";
  return { label: `preview (${KIND_LABEL[preview.kind]}), computed ${at}${truncated}`, text };
}

/** The preview posted in the thread (Slack's "Show preview"): Markdown with the text as a code block. */
export function previewMessage(preview: PlanPreview, command: string, target: string): string {
  const section = cardPreviewOf(preview);
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

function capped(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const kept = text.slice(0, max);
  const lastBreak = kept.lastIndexOf("\n");
  return { text: `${lastBreak > max / 2 ? kept.slice(0, lastBreak) : kept}\n…`, cut: true };
}

function oneLine(command: string): string {
  const line = command.replace(/\s*\n\s*/g, " ⏎ ").replace(/`/g, "ʼ");
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
