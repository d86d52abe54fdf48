import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { REFUSAL_CODES, REFUSALS, type RefusalCode, refusal, refusalSchema } from "./refusals.ts";
import { outcomeEndsTurn, TOOL_OUTCOME_KINDS } from "./tool-outcome.ts";

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), "utf8");

test("every refusal code has a next step, and each listed producer really returns it", () => {
  for (const code of REFUSAL_CODES) {
    const spec = REFUSALS[code];
    assert.ok(spec.nextStep.length > 10, `${code} has a next step`);
    assert.ok(spec.producers.length > 0, `${code} names its producers`);
    for (const file of spec.producers) {
      assert.ok(read(file).includes(`"${code}"`), `${file} produces ${code}`);
    }
  }
});

test("every file that returns a refusal code is listed as its producer", () => {
  const files = execFileSync("git", ["ls-files", "*.ts"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter(
      (file) => file && !file.endsWith(".test.ts") && !/(^|\/)(testing|testdata|test-support)\//.test(file),
    );
  let calls = 0;
  for (const file of files) {
    for (const match of read(file).matchAll(/\brefus(?:al|ed)\(\s*"([a-z_]+)"/g)) {
      const code = match[1] as RefusalCode;
      calls++;
      assert.ok(REFUSAL_CODES.includes(code), `${file}: ${code} is a RefusalCode`);
      assert.ok(REFUSALS[code].producers.includes(file), `${file} is listed as a producer of ${code}`);
    }
  }
  assert.ok(calls >= REFUSAL_CODES.length, `found ${calls} refusal sites`);
});

test("ARCHITECTURE.md lists every code with the files that produce it", () => {
  const architecture = read("ARCHITECTURE.md");
  for (const code of REFUSAL_CODES) {
    const row = architecture.split("\n").find((line) => line.startsWith(`| \`${code}\` |`));
    assert.ok(row, `ARCHITECTURE.md has a row for ${code}`);
    for (const file of REFUSALS[code].producers)
      assert.ok(row.includes(`\`${file}\``), `${code} row names ${file}`);
    assert.equal(
      row.trimEnd().endsWith("| yes |"),
      REFUSALS[code].endsTurn,
      `${code} row says whether it ends the turn`,
    );
  }
});

test("a refusal is redacted on the way out and always validates against the schema", () => {
  const made = refusal("lint", "bad quoting in `mysql -psecretpassword123 -e 'x`");
  assert.doesNotMatch(made.reason, /secretpassword123/);
  assert.equal(made.next_step, REFUSALS.lint.nextStep);
  assert.ok(refusalSchema.safeParse(made).success);
  assert.equal(refusalSchema.safeParse({ ...made, code: "made_up" }).success, false);
});

test("the turn ends on the structure only: waiting kinds and the refusal codes that say so", () => {
  for (const code of REFUSAL_CODES) {
    assert.equal(outcomeEndsTurn(refusal(code, "reason")), REFUSALS[code].endsTurn, code);
  }
  for (const [kind, spec] of Object.entries(TOOL_OUTCOME_KINDS)) {
    if (kind !== "refused") assert.equal(outcomeEndsTurn({ kind }), spec.endsTurn, kind);
  }
  // Unreadable or unknown results never end a turn; wording is never read.
  assert.equal(outcomeEndsTurn(undefined), false);
  assert.equal(outcomeEndsTurn("Refused (approval_pending): wait"), false);
  assert.equal(outcomeEndsTurn({ kind: "refused", code: "made_up" }), false);
  assert.equal(outcomeEndsTurn({ kind: "made_up" }), false);
  assert.equal(outcomeEndsTurn({ kind: "toString" }), false);
});
