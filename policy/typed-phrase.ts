/**
 * The one normalisation of a typed confirmation phrase, used wherever a phrase is compared or
 * parsed: policy/consent.ts (the typed-confirmation grammar), bot/core/chat-core.ts (is this
 * message the pending card's phrase?) and store/consent.ts (may this approval be released?).
 *
 * An operator copies the phrase from a card, and each adapter renders it differently: Matrix as
 * `<code>` (a copy gives the bare text), Slack as a mrkdwn code span and the terminal as plain text
 * in backticks (a copy may keep the backticks), and chat clients add quotes, a final period or
 * extra spaces. So the whole message counts as the phrase after:
 * - Unicode NFKC (full-width letters, non-breaking spaces),
 * - surrounding backticks and straight or curly quotes removed, with a final period inside or
 *   outside them (`` `confirm destroy lxc:x`. ``),
 * - every run of whitespace made one space,
 * - lower case.
 * Nothing else is forgiven: other words around the phrase make it a different message.
 */
export function normaliseTypedPhrase(text: string): string {
  let phrase = text.normalize("NFKC").replace(/\s+/g, " ").trim();
  for (;;) {
    const stripped = phrase
      .replace(/\.$/, "")
      .replace(/^[`'"“”‘’]+|[`'"“”‘’]+$/g, "")
      .trim();
    if (stripped === phrase) break;
    phrase = stripped;
  }
  return phrase.toLowerCase();
}

/** Whether the typed message is the required phrase (both normalised the one way). */
export function sameTypedPhrase(typed: string | undefined, required: string): boolean {
  if (typed === undefined) return false;
  const normalised = normaliseTypedPhrase(typed);
  return normalised !== "" && normalised === normaliseTypedPhrase(required);
}
