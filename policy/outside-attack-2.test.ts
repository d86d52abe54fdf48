import assert from "node:assert/strict";
import { test } from "node:test";
import {
  braceAttacks,
  CONFIG_CODE,
  KEYWORD_EXEC,
  STILL_READ_ONLY,
  shoptAttacks,
  watchdogAttacks,
} from "../test-support/oracle/outside-attack-2.ts";
import { loadClassifier } from "./classify.ts";

/** The second outside attack (test-support/oracle/outside-attack-2.ts); the oracle half is there too. */
const classifier = await loadClassifier();
const risk = (command: string) => classifier.classify(command, "host").risk;

function readOnly(commands: readonly string[]): string[] {
  return commands.filter((command) => risk(command) === "read_only");
}

test("brace expansion is run-time text: no braced form of a writing argv is read_only", () => {
  const attacks = braceAttacks();
  assert.ok(attacks.length > 100, `${attacks.length} generated`);
  assert.deepEqual(readOnly(attacks), []);
});

test("a path braces turn into the watchdog is destructive, not read_only", () => {
  const attacks = watchdogAttacks();
  assert.deepEqual(
    attacks.filter((command) => risk(command) !== "destructive"),
    [],
  );
});

test("shopt reads bundled flags: -os/-so set options outside the proven ones are not read_only", () => {
  assert.deepEqual(readOnly(shoptAttacks()), []);
  assert.notEqual(risk(KEYWORD_EXEC), "read_only");
});

test("nginx -t only on the server's own configuration; zgrep without -f", () => {
  assert.deepEqual(readOnly(CONFIG_CODE), []);
});

test("reading stays read_only: braces that only name files, proven shopt options, nginx -t", () => {
  assert.deepEqual(
    STILL_READ_ONLY.filter((command) => risk(command) !== "read_only"),
    [],
  );
});
