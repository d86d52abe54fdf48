import assert from "node:assert/strict";
import { test } from "node:test";
import { GENERIC_STOPWORDS } from "./gitleaks-stopwords.ts";
import { KeywordScanner } from "./keyword-scan.ts";
import { ALL_SECRET_RULES, HOMELAB_RULES } from "./rule-set.ts";

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

test("a homelab rule whose pattern starts with a list of words has a keyword in each of them", () => {
  // The keywords decide whether a rule runs at all: a word the pattern names but no keyword covers
  // is never looked for on its own (`az '…'` once slipped through this way).
  // `\b(?:sk|rk)_…`: the words, and the literal right after the list (kept only when unquantified).
  const lead = /^(?:\\b)?\(\?:((?:[A-Za-z0-9_-]+\|)+[A-Za-z0-9_-]+)\)([A-Za-z0-9_-]*)([?*+{]?)/;
  const checked: string[] = [];
  for (const rule of HOMELAB_RULES) {
    if (!("pattern" in rule) || rule.keywords.length === 0) continue;
    const list = lead.exec(rule.pattern.source);
    if (!list) continue;
    checked.push(rule.id);
    const after = list[3] === "" ? list[2]! : "";
    for (const word of list[1]!.split("|")) {
      const covered = rule.keywords.some((keyword) => `${word}${after}`.toLowerCase().includes(keyword));
      assert.ok(covered, `${rule.id}: no keyword occurs in ${JSON.stringify(word + after)}`);
    }
  }
  assert.ok(checked.includes("cloud-cli-quoted-key"), `checked: ${checked.join(", ")}`);
});
