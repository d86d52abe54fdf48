import { binaryPreview, decodeOutput, isBinary } from "./output-text.ts";

/**
 * Keeps the first and the last `maxBytes / 2` bytes of a stream and counts the rest, so a command
 * that prints gigabytes costs bounded memory and the result still shows how it started and ended.
 */
export class OutputCapture {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;

  constructor(maxBytes: number) {
    this.#headLimit = Math.ceil(maxBytes / 2);
    this.#tailLimit = Math.floor(maxBytes / 2);
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  get truncated(): boolean {
    return this.#totalBytes > this.#headBytes + this.#tailBytes;
  }

  push(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(this.#headLimit - this.#headBytes, rest.length);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tail.length > 0 && this.#tailBytes - this.#tail[0]!.length >= this.#tailLimit) {
      this.#tailBytes -= this.#tail.shift()!.length;
    }
    if (this.#tailBytes > this.#tailLimit) {
      const joined = Buffer.concat(this.#tail);
      this.#tail = [joined.subarray(joined.length - this.#tailLimit)];
      this.#tailBytes = this.#tailLimit;
    }
  }

  /** Mostly NUL, control bytes or invalid UTF-8 (judged on what was kept): `text()` is then a preview. */
  get binary(): boolean {
    return isBinary(Buffer.concat([...this.#head, ...this.#tail]));
  }

  /**
   * Head, an omission marker when bytes were dropped, and tail, as storable text (output-text.ts:
   * valid UTF-8, no NUL, escapes stripped); binary output as a flagged printable preview.
   */
  text(): string {
    if (this.binary) return binaryPreview(Buffer.concat(this.#head), this.#totalBytes);
    const head = decodeOutput(Buffer.concat(this.#head));
    const tail = decodeOutput(Buffer.concat(this.#tail));
    if (!this.truncated) return head + tail;
    const omitted = this.#totalBytes - this.#headBytes - this.#tailBytes;
    return `${head}\n[… ${omitted} bytes omitted, ${this.#totalBytes} bytes in total …]\n${tail}`;
  }
}
