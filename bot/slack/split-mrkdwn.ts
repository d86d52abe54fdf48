/**
 * Long mrkdwn in pieces that each fit a Block Kit text field, losing nothing: cuts fall on line
 * breaks, else on spaces, else between graphemes (an emoji or a flag is never cut in half), never
 * inside an entity (&amp;) or a <…> link, and a code block cut in two is closed and reopened.
 */

const FENCE = "```";
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export function splitMrkdwn(text: string, limit: number): string[] {
  if (limit < 16) throw new RangeError("limit too small to split mrkdwn");
  if (text.length <= limit) return [text];
  // Every chunk keeps room for the "\n```" that closes a code block it cuts.
  const cap = limit - FENCE.length - 1;
  const chunks: string[] = [];
  let inFence = false;
  let current = "";
  const push = () => {
    if (current.trim() !== "" && current !== FENCE) chunks.push(inFence ? `${current}\n${FENCE}` : current);
    current = inFence ? FENCE : "";
  };
  for (const line of text.split("\n")) {
    let rest = line;
    for (;;) {
      const sep = current === "" ? "" : "\n";
      if (current.length + sep.length + rest.length <= cap) {
        current += sep + rest;
        break;
      }
      if (current !== "" && current !== FENCE && rest === line) {
        push();
        continue;
      }
      const cut = cutPoint(rest, cap - current.length - sep.length);
      current += sep + rest.slice(0, cut);
      rest = rest.slice(cut);
      push();
    }
    if (countFences(line) % 2 === 1) inFence = !inFence;
  }
  if (current.trim() !== "" && current !== FENCE) chunks.push(current);
  return chunks;
}

/** At most `max` characters, cut between graphemes, with "…" when something was left out. */
export function truncateGraphemes(text: string, max: number, ellipsis = "…"): string {
  if (text.length <= max) return text;
  const cut = graphemeBoundaryAtOrBefore(text, max - ellipsis.length);
  return `${text.slice(0, cut)}${ellipsis}`;
}

/**
 * mrkdwn shortened to at most `max` characters with "…": like truncateGraphemes, and never
 * inside an entity (&amp;) or a <…> link, which would leave a bare & or < behind.
 */
export function truncateMrkdwn(text: string, max: number, ellipsis = "…"): string {
  if (text.length <= max) return text;
  const room = max - ellipsis.length;
  let cut = graphemeBoundaryAtOrBefore(text, room);
  for (const [start, end] of protectedRanges(text)) if (start < cut && cut < end) cut = start;
  return `${text.slice(0, cut)}${ellipsis}`;
}

/** Where a cut would break Slack markup: entities, <…> sequences, `code spans`. */
function protectedRanges(line: string): (readonly [number, number])[] {
  return [...line.matchAll(/&[a-z]+;|<[^<>\n]*>|`[^`\n]+`/g)].map(
    (m) => [m.index, m.index + m[0].length] as const,
  );
}

function countFences(line: string): number {
  return line.split(FENCE).length - 1;
}

/**
 * Where to cut `line` so the head has at most `max` characters: after the last space that
 * leaves at least half the room used, else the last grapheme boundary; never inside an entity,
 * a <…> sequence or a code span unless one alone is longer than the room.
 */
function cutPoint(line: string, max: number): number {
  const limit = Math.max(1, max);
  const ranges = protectedRanges(line);
  const inside = (at: number) => ranges.find(([start, end]) => start < at && at < end);
  let cut = graphemeBoundaryAtOrBefore(line, limit);
  const range = inside(cut);
  if (range) cut = range[0] > 0 ? range[0] : range[1] <= limit ? range[1] : cut;
  for (
    let space = line.lastIndexOf(" ", cut - 1);
    space >= limit / 2;
    space = line.lastIndexOf(" ", space - 1)
  ) {
    if (!inside(space + 1)) return space + 1;
  }
  return Math.max(1, cut);
}

function graphemeBoundaryAtOrBefore(text: string, index: number): number {
  if (index >= text.length) return text.length;
  let boundary = 0;
  for (const { index: at } of segmenter.segment(text)) {
    if (at > index) break;
    boundary = at;
  }
  return boundary > 0 ? boundary : Math.min(index, text.length);
}
