/**
 * Command output is bytes from the target, not text we trust: it may hold NUL, terminal escapes,
 * other control bytes or invalid UTF-8 (`cat /proc/1/cmdline`, `head -c 64 /dev/zero`, a binary
 * file). What we store and show is always valid text without NUL — Postgres refuses NUL in text —
 * and mostly-binary output is stored as a flagged, printable preview instead of mojibake.
 */

/** Above this share of unprintable bytes the output is binary. */
const BINARY_SHARE = 0.3;
const PREVIEW_BYTES = 256;

/** Bytes as storable text: decoded, escapes stripped, controls made visible. */
export function decodeOutput(bytes: Uint8Array): string {
  return safeText(new TextDecoder("utf-8").decode(bytes));
}

/** More than a third of the bytes are NUL, control bytes or invalid UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  return unprintableShare(bytes, new TextDecoder("utf-8").decode(bytes)) > BINARY_SHARE;
}

/**
 * Any string made safe to store and show: ANSI escape sequences removed, NUL and the other C0
 * controls (tab, newline and carriage return stay) and DEL shown as their Unicode control pictures
 * (U+2400…), so `a\0b` reads `a␀b`.
 */
export function safeText(text: string): string {
  return text
    .replace(ANSI_SEQUENCE, "")
    .replace(CONTROL_BYTES, (c) => String.fromCharCode(c === "\u007f" ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are what safeText replaces
const CONTROL_BYTES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const ANSI_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences (CSI and OSC)
  /\u001b\[[0-?]{0,32}[ -/]{0,8}[@-~]|\u001b\][^\u0007\u001b]{0,1024}(?:\u0007|\u001b\\)/g;

function unprintableShare(bytes: Uint8Array, decoded: string): number {
  let unprintable = 0;
  for (const byte of bytes) {
    if (byte === 9 || byte === 10 || byte === 13) continue;
    if (byte < 32 || byte === 127) unprintable++;
  }
  for (const char of decoded) if (char === "\ufffd") unprintable++;
  return unprintable / bytes.length;
}

/**
 * `[binary output: N bytes …]` and the first bytes as printable ASCII, every other byte as `.`
 * (like the right column of hexdump -C). `totalBytes` counts what the command printed in all.
 */
export function binaryPreview(head: Uint8Array, totalBytes: number): string {
  let preview = "";
  for (const byte of head.subarray(0, PREVIEW_BYTES)) {
    preview += byte >= 32 && byte < 127 ? String.fromCharCode(byte) : byte === 10 ? "\n" : ".";
  }
  return `[binary output: ${totalBytes} bytes; the first ${Math.min(PREVIEW_BYTES, head.length)} as printable text, other bytes as "."]\n${preview}`;
}
