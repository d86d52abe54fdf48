import assert from "node:assert/strict";
import { test } from "node:test";
import { mixedCommandOutput } from "../../test-support/bench/policy/redact.bench.ts";
import { PATHOLOGICAL_SHAPES } from "../../test-support/secret-samples/pathological.ts";
import { SECRET_SAMPLES } from "../../test-support/secret-samples/secret-samples.ts";
import { findBase64Secrets } from "./base64-scan.ts";

/**
 * The scan as it was written before it became a loop: a regex for the runs, a hex test and a
 * Buffer decode. The loop must find the same runs, hand `holdsSecret` the same decoded texts and
 * report the same spans on every input.
 */
function* referenceScan(
  text: string,
  holdsSecret: (decoded: string) => boolean,
): Generator<[number, number]> {
  const run = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,65536}={0,2}/g;
  for (let match = run.exec(text); match !== null; match = run.exec(text)) {
    const body = match[0].replace(/=+$/, "");
    if (/^[0-9a-f]+$/i.test(body)) continue;
    if (body.length % 4 === 1) continue;
    const bytes = Buffer.from(body.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    if (bytes.length < 12) continue;
    let printable = 0;
    for (const byte of bytes)
      if ((byte >= 0x20 && byte < 0x7f) || byte === 0x09 || byte === 0x0a || byte === 0x0d) printable++;
    if (printable / bytes.length < 0.95) continue;
    if (holdsSecret(bytes.toString("latin1"))) yield [match.index, match.index + match[0].length];
  }
}

/** Both scans over `text`: the spans each reports and the decoded texts each handed over. */
function bothScans(text: string) {
  // Say "secret" for every other decoded text, so both yielding and not yielding are compared.
  const run = (scan: typeof findBase64Secrets) => {
    const decoded: string[] = [];
    const spans = [...scan(text, (d) => decoded.push(d) % 2 === 1)];
    return { spans, decoded };
  };
  return { loop: run(findBase64Secrets), reference: run(referenceScan) };
}

function assertSameAsReference(text: string, label: string): void {
  const { loop, reference } = bothScans(text);
  assert.deepEqual(loop, reference, label);
}

const b64 = (text: string) => Buffer.from(text, "latin1").toString("base64");

test("base64 scan: the boundaries of a run are the regex's", () => {
  const secret = b64("password=hunter2xyz"); // 28 characters, one '='
  const cases: Record<string, string> = {
    "15 characters": "QUJDREVGR0hJSktMTU5P".slice(0, 15),
    "16 characters": "cGFzc3dvcmQ9aHVu",
    "a run at the very start and end": secret,
    "a run after a base64 character is inside a longer run": `x${secret}`,
    "url-safe alphabet": b64("token=abc>>>def???ghi").replace(/\+/g, "-").replace(/\//g, "_"),
    "three equals signs": `${secret.replace(/=+$/, "")}===`,
    "equals signs at the end of the text": `a ${secret}`,
    "length 1 mod 4": `${"cGFzc3dvcmQ9aHVudGVy"}M`,
    // "a0d0" decodes to "kGt": hex that would read as text, skipped as hex.
    "hex that decodes to text": "a0d0".repeat(8),
    "plain hex": "d40cca85f0f54f30445a3577e18a0a5abcca95bf8e2f8559f823cdef7f73edd7",
    "hex with equals": "d40cca85f0f54f30445a3577e18a0a5a==",
    "upper-case hex": "D40CCA85F0F54F30445A3577E18A0A5A",
    "a path": "/usr/lib/x86_64-linux-gnu/libssl.so.3",
    "non-ASCII around a run": `é${secret}ü`,
    "exactly 95% printable": b64(`${"a".repeat(19)}\x01`),
    "just under 95% printable": b64(`${"a".repeat(18)}\x01\x02`),
    "tab, newline and carriage return count as printable": b64("user=root\tpass=x\r\ny"),
    "two runs separated by equals": `${secret}${secret}`,
  };
  for (const [label, text] of Object.entries(cases)) assertSameAsReference(text, label);
  // The cases above reach both outcomes.
  assert.deepEqual(bothScans(cases["16 characters"]!).loop.decoded, ["password=hun"]);
  assert.equal(bothScans(cases["exactly 95% printable"]!).loop.decoded.length, 1);
  assert.equal(bothScans(cases["just under 95% printable"]!).loop.decoded.length, 0);
});

test("base64 scan: a run longer than 65,536 characters is read on its first 65,536", () => {
  const long = b64("k=v;".repeat(20_000)); // 106,668 characters of printable base64
  // The hex test reads those 65,536 too: hex that decodes to text, then a character that is not hex.
  const hexThenNot = `${"a0d0".repeat(16_384)}zz`;
  for (const text of [
    long,
    `${long.slice(0, 65_536)}==`,
    `${long.slice(0, 65_537)}= ${long.slice(0, 40)}`,
    hexThenNot,
  ])
    assertSameAsReference(text, `a run of ${text.length}`);
});

test("base64 scan: the same spans and decoded texts as the regex on random text", () => {
  // A seeded generator, so a failure names a text that can be replayed.
  let seed = 0x5eed;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const pieces = ["A", "z", "0", "9", "+", "/", "-", "_", "=", "==", " ", "\n", ":", "é", "f", "c2VjcmV0PQ"];
  for (let round = 0; round < 2_000; round++) {
    let text = "";
    const length = Math.floor(random() * 200);
    while (text.length < length) {
      text +=
        random() < 0.1
          ? b64(`pw=${Math.floor(random() * 1e9)}`)
          : pieces[Math.floor(random() * pieces.length)]!.repeat(1 + Math.floor(random() * 20));
    }
    assertSameAsReference(text, `round ${round}: ${JSON.stringify(text)}`);
  }
});

test("base64 scan: the same spans and decoded texts as the regex on the corpus and the bench's output", () => {
  for (const sample of SECRET_SAMPLES) assertSameAsReference(sample.text, sample.form);
  for (const [name, shape] of Object.entries(PATHOLOGICAL_SHAPES)) assertSameAsReference(shape, name);
  assertSameAsReference(mixedCommandOutput(300_000), "mixed command output");
});
