import assert from "node:assert/strict";
import { test } from "node:test";
import { OutputCapture } from "./output-capture.ts";

test("keeps everything while under the limit", () => {
  const capture = new OutputCapture(10);
  capture.push(Buffer.from("abc"));
  capture.push(Buffer.from("defg"));
  assert.equal(capture.text(), "abcdefg");
  assert.equal(capture.truncated, false);
  assert.equal(capture.totalBytes, 7);
});

test("exactly at the limit is not truncated", () => {
  const capture = new OutputCapture(10);
  capture.push(Buffer.from("0123456789"));
  assert.equal(capture.text(), "0123456789");
  assert.equal(capture.truncated, false);
});

test("keeps the first and last halves and says how much was dropped", () => {
  const capture = new OutputCapture(8);
  for (const piece of ["HEAD", "-middle-", "xx", "more", "TAIL"]) capture.push(Buffer.from(piece));
  assert.equal(capture.totalBytes, 22);
  assert.equal(capture.truncated, true);
  assert.equal(capture.text(), "HEAD\n[… 14 bytes omitted, 22 bytes in total …]\nTAIL");
});

test("a single huge chunk is split into head and tail", () => {
  const capture = new OutputCapture(6);
  capture.push(Buffer.from("abcdefghijklmnopqrstuvwxyz"));
  assert.match(capture.text(), /^abc\n\[… 20 bytes omitted, 26 bytes in total …\]\nxyz$/);
});

test("a zero limit keeps nothing but still counts", () => {
  const capture = new OutputCapture(0);
  capture.push(Buffer.from("abc"));
  assert.equal(capture.totalBytes, 3);
  assert.equal(capture.truncated, true);
});
