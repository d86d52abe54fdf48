/**
 * "Request changes" (issue #32): an operator's reply that sends a plan or an approval back to the
 * agent with what to do instead — not a bare denial. The whole message is the request when it opens
 * with `changes:` / `change:` / `request changes:` / `changes requested:` / ✏️ / 📝 and a reason
 * follows (at least 3 characters). Anything else is not a change request.
 */
export const MAX_CHANGE_REASON = 2000;

/** A word opener needs `:` or a dash before the reason; an emoji opener only a space. */
const WORD_OPENER =
  /^\s*(?:(?:please\s+)?request(?:ed)?\s+changes?|changes?\s+requested|changes?|change\s+request)\s*(?:[:：]|\s[-–—]\s)\s*([\s\S]*)$/i;
const EMOJI_OPENER = /^\s*(?:\u270F\uFE0F?|\u{1F4DD})\s*[:：]?\s+([\s\S]*)$/u;

export function parseChangeRequest(text: string): { reason: string } | null {
  const normalised = text.normalize("NFC");
  const match = WORD_OPENER.exec(normalised) ?? EMOJI_OPENER.exec(normalised);
  if (!match) return null;
  const reason = (match[1] ?? "").trim();
  if (reason.length < 3) return null;
  return {
    reason: reason.length > MAX_CHANGE_REASON ? `${reason.slice(0, MAX_CHANGE_REASON - 1)}…` : reason,
  };
}
