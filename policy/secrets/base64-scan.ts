/**
 * Base64 that hides a secret: `cGFzc3dvcmQ9aHVudGVyMg==` is `password=hunter2`. A run of base64
 * characters that decodes to text (not to the bytes of a hash, a digest or an image) is decoded and
 * handed to `holdsSecret` (the whole detector); the run is reported when the decoded text holds a
 * secret. Hex hashes, UUIDs and image digests decode to binary and stay.
 */
// The look-behind starts a match only where a run starts: without it the engine tried every position
// inside a run shorter than 16 (a path, an identifier) again, the detector's costliest pattern.
const RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,65536}={0,2}/g;
/** Decoded text must be this printable to be read as text. */
const PRINTABLE_SHARE = 0.95;

export function* findBase64Secrets(
  text: string,
  holdsSecret: (decoded: string) => boolean,
): Generator<[number, number]> {
  RUN.lastIndex = 0;
  for (let match = RUN.exec(text); match !== null; match = RUN.exec(text)) {
    const run = match[0];
    // Inside a longer word (a path, an identifier) or plain hex: not a blob of its own.
    if (/^[0-9a-f]+$/i.test(run.replace(/=+$/, ""))) continue;
    const decoded = decodeText(run);
    if (decoded && holdsSecret(decoded)) yield [match.index, match.index + run.length];
  }
}

function decodeText(run: string): string | undefined {
  const body = run.replace(/=+$/, "");
  if (body.length % 4 === 1) return undefined;
  const bytes = Buffer.from(body.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length < 12) return undefined;
  let printable = 0;
  for (const byte of bytes)
    if ((byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d) printable++;
  return printable / bytes.length >= PRINTABLE_SHARE ? bytes.toString("latin1") : undefined;
}
