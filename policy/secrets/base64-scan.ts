/**
 * Base64 that hides a secret: `cGFzc3dvcmQ9aHVudGVyMg==` is `password=hunter2`. A run of base64
 * characters that decodes to text (not to the bytes of a hash, a digest or an image) is decoded and
 * handed to `holdsSecret` (the whole detector); the run is reported when the decoded text holds a
 * secret. Hex hashes, UUIDs and image digests decode to binary and stay.
 *
 * A run is what `/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,65536}={0,2}/g` matches (base64-scan.test.ts
 * holds this scan to that regex): it starts where a run of base64 characters starts, takes at most
 * 65,536 of them and up to two `=`. It is a loop, not that regex, because it reads every output and
 * the regex was the detector's costliest pass (the look-behind and the class tested at every
 * character): the loop looks 16 characters ahead and skips to just after the last one outside base64
 * (most words are shorter), and most runs (paths, identifiers) decode to binary, so the decoding stops
 * at the first byte that makes the printable share unreachable, before any string is built.
 */
const MIN_RUN = 16;
const MAX_RUN = 65_536;
/** Decoded text must be this printable to be read as text. */
const PRINTABLE_SHARE = 0.95;
/** Fewer decoded bytes than this is not a blob of its own. */
const MIN_BYTES = 12;

/** char code (< 128) → its 6-bit value, both alphabets (`+/` and `-_`); -1 outside base64. */
const SEXTET = new Int8Array(128).fill(-1);
/** char code (< 128) → 1 for a hex digit. */
const HEX = new Uint8Array(128);
{
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) SEXTET[alphabet.charCodeAt(i)] = i;
  SEXTET[45] = 62; // -
  SEXTET[95] = 63; // _
  for (const char of "0123456789abcdefABCDEF") HEX[char.charCodeAt(0)] = 1;
}
const EQUALS = 61;
/** Where a run is decoded (one at a time: `holdsSecret` is called after its text is built). */
const decodedBytes = new Uint8Array((MAX_RUN * 3) / 4);

export function* findBase64Secrets(
  text: string,
  holdsSecret: (decoded: string) => boolean,
): Generator<[number, number]> {
  const length = text.length;
  // `at` is always where a run could start: the text's start, or just after a character outside base64.
  let at = 0;
  while (at + MIN_RUN <= length) {
    // Most words are shorter than 16: the last character outside base64 among the next 16 says
    // where the next run could start, without reading the characters before it.
    let outside = at + MIN_RUN - 1;
    while (outside >= at && isBase64(text.charCodeAt(outside))) outside--;
    if (outside >= at) {
      at = outside + 1;
      continue;
    }
    const start = at;
    at += MIN_RUN;
    while (at < length && isBase64(text.charCodeAt(at))) at++;
    const runLength = at - start;
    // A longer run is matched on its first 65,536 characters; its rest starts no run (no `=` follows).
    const body = Math.min(runLength, MAX_RUN);
    let end = start + body;
    if (runLength <= MAX_RUN) {
      if (end < length && text.charCodeAt(end) === EQUALS) end++;
      if (end < length && text.charCodeAt(end) === EQUALS) end++;
    }
    // Plain hex (a hash, a UUID's part) is not a blob of its own.
    if (isHex(text, start, body)) continue;
    const decoded = decodeText(text, start, body);
    if (decoded !== undefined && holdsSecret(decoded)) yield [start, end];
  }
}

function isBase64(code: number): boolean {
  return code < 128 && SEXTET[code]! >= 0;
}

function isHex(text: string, start: number, length: number): boolean {
  for (let i = start; i < start + length; i++) if (HEX[text.charCodeAt(i)] === 0) return false;
  return true;
}

/** The `length` base64 characters at `start` decoded, when at least 95% printable; else undefined. */
function decodeText(text: string, start: number, length: number): string | undefined {
  if (length % 4 === 1) return undefined;
  const bytes = (length * 3) >> 2;
  if (bytes < MIN_BYTES) return undefined;
  // Most runs are paths and identifiers decoding to binary: stop at the first byte after which the
  // share can no longer be reached, before building any string.
  let nonPrintable = 0;
  let written = 0;
  let bits = 0;
  let buffered = 0;
  for (let i = start; i < start + length; i++) {
    bits = (bits << 6) | SEXTET[text.charCodeAt(i)]!;
    buffered += 6;
    if (buffered >= 8) {
      buffered -= 8;
      const byte = (bits >> buffered) & 0xff;
      bits &= (1 << buffered) - 1;
      if (!isPrintable(byte) && (bytes - ++nonPrintable) / bytes < PRINTABLE_SHARE) return undefined;
      decodedBytes[written++] = byte;
    }
  }
  return Buffer.from(decodedBytes.buffer, 0, written).toString("latin1");
}

function isPrintable(byte: number): boolean {
  return (byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}
