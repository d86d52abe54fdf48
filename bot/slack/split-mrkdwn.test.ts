import assert from "node:assert/strict";
import { test } from "node:test";
import { splitMrkdwn, truncateGraphemes } from "./split-mrkdwn.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemes = (s: string) => [...segmenter.segment(s)].map((g) => g.segment);

/** A tiny deterministic generator: the same inputs on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const PIECES = [
  "word",
  " ",
  " ",
  "\n",
  "&amp;",
  "&lt;",
  "👍🏽",
  "🇩🇪",
  "é",
  "<https://example.com/a|a link>",
  "\n```\n",
  "`x`",
  "longerwordwithoutspaces",
];

function sample(rand: () => number, length: number): string {
  let s = "";
  while (s.length < length) s += PIECES[Math.floor(rand() * PIECES.length)];
  // Our renderers always close a code block they open.
  return s.split("```").length % 2 === 0 ? `${s}\n\`\`\`` : s;
}

test("split pieces fit, lose nothing, and never cut a grapheme, an entity or a link", () => {
  const rand = random(21);
  for (let run = 0; run < 300; run++) {
    const limit = 40 + Math.floor(rand() * 200);
    const text = sample(rand, Math.floor(rand() * 1500));
    const chunks = splitMrkdwn(text, limit);
    for (const chunk of chunks) {
      assert.ok(chunk.length <= limit, `chunk of ${chunk.length} > ${limit}`);
      assert.equal(chunk.split("```").length % 2, 1, `fences balanced in ${JSON.stringify(chunk)}`);
      assert.ok(
        !/&[a-z]*$/.test(chunk) || /&[a-z]+;$/.test(chunk),
        `entity cut: ${JSON.stringify(chunk.slice(-8))}`,
      );
      assert.ok(!/<[^<>\n]*$/.test(chunk) || chunk === text, `link cut: ${JSON.stringify(chunk.slice(-30))}`);
    }
    const strip = (s: string) => s.replace(/```/g, "").replace(/\s+/g, "");
    assert.equal(strip(chunks.join("")), strip(text), "no character lost or added");
    const whole = new Set(graphemes(text.replace(/\s+/g, "")));
    for (const g of graphemes(chunks.join("").replace(/\s+/g, "")))
      assert.ok(whole.has(g), `grapheme ${g} was cut`);
  }
});

test("short text is one piece; cuts prefer line breaks, then spaces", () => {
  assert.deepEqual(splitMrkdwn("short", 100), ["short"]);
  assert.deepEqual(splitMrkdwn("aaaaa\nbbbbb\nccccc", 16), ["aaaaa\nbbbbb", "ccccc"]);
  assert.deepEqual(splitMrkdwn("alpha beta gamma delta epsilon", 20), [
    "alpha beta ",
    "gamma delta ",
    "epsilon",
  ]);
});

test("a code block cut in two is closed and reopened", () => {
  const code = `\`\`\`\n${Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n")}\n\`\`\``;
  const chunks = splitMrkdwn(code, 40);
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) {
    assert.ok(chunk.startsWith("```"), chunk);
    assert.ok(chunk.endsWith("```"), chunk);
  }
});

test("truncation never cuts an emoji and says so", () => {
  assert.equal(truncateGraphemes("abc", 5), "abc");
  assert.equal(truncateGraphemes("ab👍🏽cd", 4), "ab…");
  assert.equal(truncateGraphemes("🇩🇪🇩🇪🇩🇪", 5), "🇩🇪…");
});

test("mrkdwn truncation never leaves a bare & or half a link", async () => {
  const { truncateMrkdwn } = await import("./split-mrkdwn.ts");
  assert.equal(truncateMrkdwn("scrub&amp;resilver", 10), "scrub…");
  assert.equal(truncateMrkdwn("see <https://example.com/a|docs> now", 12), "see …");
  assert.equal(truncateMrkdwn("short", 10), "short");
});

test("a code span is not cut in two when a space outside it will do", () => {
  const chunks = splitMrkdwn(`${"word ".repeat(8)}\`zpool status tank\` end`, 50);
  assert.ok(
    chunks.some((c) => c.includes("`zpool status tank`")),
    JSON.stringify(chunks),
  );
});
