/**
 * Slack's emoji shortcodes that carry a meaning for oikos, as the Unicode a Matrix or terminal
 * user types. A Slack client shows `:+1:` as 👍 and sends the shortcode in the message text
 * (with the tone as a second code: `:+1::skin-tone-2:`); names from Slack's emoji set
 * (iamcal/emoji-data `short_names`, which Slack uses).
 */
const SHORTCODES: Readonly<Record<string, string>> = {
  "+1": "👍",
  thumbsup: "👍",
  "-1": "👎",
  thumbsdown: "👎",
  white_check_mark: "✅",
  heavy_check_mark: "✔️",
  ballot_box_with_check: "☑️",
  x: "❌",
  heavy_multiplication_x: "✖️",
  rocket: "🚀",
  octagonal_sign: "🛑",
  raised_hand: "✋",
  hand: "✋",
};

/** `:+1:`, `:+1::skin-tone-2:`, `:white_check_mark:` → 👍, 👍, ✅; other shortcodes stay as typed. */
export function decodeEmojiShortcodes(text: string): string {
  return text.replace(
    // Not inside a word: `host:x:+1` is no emoji.
    /(?<![A-Za-z0-9]):([a-z0-9_+-]{1,40}):(?::skin-tone-[2-6]:)?(?![A-Za-z0-9])/g,
    (whole, name: string) => SHORTCODES[name] ?? whole,
  );
}
