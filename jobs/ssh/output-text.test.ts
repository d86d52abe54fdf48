import assert from "node:assert/strict";
import { test } from "node:test";
import { OutputCapture } from "./output-capture.ts";
import { binaryPreview, decodeOutput, isBinary, safeText } from "./output-text.ts";

test("safeText: NUL and control bytes become control pictures, escapes go, tab/newline/CR stay", () => {
  assert.equal(safeText("a\u0000b\u0007c\u007f"), "a␀b␇c␡");
  assert.equal(safeText("\u001b[1;31mred\u001b[0m\tx\r\n"), "red\tx\r\n");
  assert.equal(safeText("\u001b]0;title\u0007after"), "after");
  assert.equal(safeText("\u0000\u0001\u0002"), "␀␁␂");
});

test("decodeOutput: invalid UTF-8 becomes U+FFFD; valid text is unchanged", () => {
  assert.equal(decodeOutput(Buffer.from([0x63, 0x61, 0x66, 0xe9])), "caf\ufffd");
  assert.equal(decodeOutput(Buffer.from("héllo wörld ✓\n")), "héllo wörld ✓\n");
});

test("isBinary: mostly NUL / control / invalid bytes; text with a few NUL separators is not", () => {
  assert.equal(isBinary(Buffer.alloc(64)), true);
  assert.equal(isBinary(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])), true);
  assert.equal(isBinary(Buffer.from("/sbin/init\0splash\0quiet\0")), false);
  assert.equal(isBinary(Buffer.from("")), false);
});

test("binaryPreview: byte count and printable ASCII with dots", () => {
  assert.equal(
    binaryPreview(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]), 9000),
    '[binary output: 9000 bytes; the first 6 as printable text, other bytes as "."]\n.ELF..',
  );
});

test("OutputCapture: binary output is flagged and previewed; capped text keeps head and tail", () => {
  const binary = new OutputCapture(1024);
  binary.push(Buffer.alloc(4096));
  assert.equal(binary.binary, true);
  assert.match(binary.text(), /^\[binary output: 4096 bytes;/);
  const text = new OutputCapture(16);
  text.push(Buffer.from("head-\u0000-middle-middle-middle-tail\n"));
  assert.equal(text.binary, false);
  assert.ok(!text.text().includes("\u0000"));
  assert.match(text.text(), /bytes omitted/);
});
