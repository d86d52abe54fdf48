import assert from "node:assert/strict";
import { test } from "node:test";
import { unifiedDiff } from "./line-diff.ts";

/** Applies a unified diff to `before` the way patch(1) would (hunks in order, context checked). */
function applyDiff(before: string, diff: string): string {
  const lines = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const noFinalNewline = { before: !before.endsWith("\n") && before !== "", after: false };
  const out: string[] = [];
  let at = 0;
  const body = diff.split("\n").slice(2);
  let lastOp = "";
  for (const line of body) {
    const hunk = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(line);
    if (hunk) {
      const start = Number(hunk[1]) - (Number(hunk[2]) === 0 ? 0 : 1);
      while (at < start) out.push(lines[at++] as string);
      continue;
    }
    if (line === "\\ No newline at end of file") {
      if (lastOp === "+" || lastOp === " ") noFinalNewline.after = true;
      continue;
    }
    const op = line[0];
    const text = line.slice(1);
    lastOp = op ?? "";
    if (op === " " || op === "-") {
      assert.equal(lines[at], text, "context or removed line matches");
      at++;
    }
    if (op === " " || op === "+") out.push(text);
  }
  while (at < lines.length) out.push(lines[at++] as string);
  if (out.length === 0) return "";
  return out.join("\n") + (noFinalNewline.after ? "" : "\n");
}

test("a diff turns the old text into the new one: 500 random pairs, also without final newlines", () => {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const text = () => {
    const lines = Array.from({ length: Math.floor(random() * 14) }, () => `line ${Math.floor(random() * 5)}`);
    return lines.length === 0 ? "" : lines.join("\n") + (random() < 0.85 ? "\n" : "");
  };
  for (let i = 0; i < 500; i++) {
    const before = text();
    const after = text();
    const diff = unifiedDiff({ before: "a", after: "b" }, before, after);
    assert.notEqual(diff, null);
    if (before === after) {
      assert.equal(diff, "");
      continue;
    }
    assert.ok(diff?.startsWith("--- a\n+++ b\n@@ "), diff ?? "");
    assert.equal(
      applyDiff(before, diff as string),
      after,
      `${JSON.stringify(before)} → ${JSON.stringify(after)}\n${diff}`,
    );
  }
});

test("a one-line change shows three lines of context and the headers name the file", () => {
  const before = "a\nb\nc\nd\ne\nf\ng\nh\n";
  const after = "a\nb\nc\nd\nE\nf\ng\nh\n";
  assert.equal(
    unifiedDiff({ before: "/etc/x (now)", after: "/etc/x (after)" }, before, after),
    "--- /etc/x (now)\n+++ /etc/x (after)\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h",
  );
});

test("past the edit bound the diff gives up instead of guessing", () => {
  const before = Array.from({ length: 50 }, (_, i) => `a${i}`).join("\n");
  const after = Array.from({ length: 50 }, (_, i) => `b${i}`).join("\n");
  assert.equal(unifiedDiff({ before: "x", after: "y" }, before, after, { maxEdits: 20 }), null);
});
