import assert from "node:assert/strict";
import { test } from "node:test";
import { GENERIC_STOPWORDS } from "./gitleaks-stopwords.ts";
import { KeywordScanner } from "./keyword-scan.ts";
import { ALL_SECRET_RULES } from "./rule-set.ts";

/** What the scanner must say: ASCII letters fold to lower case, nothing else does. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

test("keyword scan: found and occursIn say what a plain search says, case-insensitively for ASCII only", () => {
  const scanners = [
    new KeywordScanner(ALL_SECRET_RULES.flatMap((rule) => rule.keywords)),
    new KeywordScanner(GENERIC_STOPWORDS),
    new KeywordScanner(["ab", "b", "abc", "bca"]),
  ];
  let seed = 0x5ca9;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  for (const scanner of scanners) {
    const pieces = [...scanner.keywords.slice(0, 40), "A", "B", "C", "x", " ", "\u212A", "İ", "é", ":"];
    for (let round = 0; round < 500; round++) {
      let text = "";
      const length = Math.floor(random() * 8);
      for (let i = 0; i < length; i++) {
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        text +=
          random() < 0.3 ? piece.toUpperCase() : piece.slice(0, 1 + Math.floor(random() * piece.length));
      }
      const lower = asciiLower(text);
      const expected = scanner.keywords.map((keyword) => (lower.includes(keyword) ? 1 : 0));
      assert.deepEqual([...scanner.found(text)], expected, JSON.stringify(text));
      assert.equal(scanner.occursIn(text), expected.includes(1), JSON.stringify(text));
    }
  }
});
