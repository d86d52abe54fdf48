import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { EmbeddedDatabaseBusy, lockEmbeddedDatabase, lockPathOf } from "./embedded-lock.ts";

const folder = () => join(mkdtempSync(join(tmpdir(), "oikos-lock-")), "pg");

test("a lock held by a live process refuses; its release frees the folder", () => {
  const dir = folder();
  // A live process other than this one: the parent of this test process.
  writeFileSync(lockPathOf(dir), JSON.stringify({ pid: process.ppid, command: "start", since: "then" }));
  assert.throws(() => lockEmbeddedDatabase(dir), EmbeddedDatabaseBusy);
  rmSync(lockPathOf(dir));
  const lock = lockEmbeddedDatabase(dir, "import ansible");
  assert.ok(existsSync(lockPathOf(dir)));
  lock.release();
  assert.ok(!existsSync(lockPathOf(dir)));
});

test("a lock whose process is gone (kill -9, a crash) is taken over", () => {
  const dir = folder();
  const gone = spawnSync(process.execPath, [
    "-e",
    "process.stdout.write(String(process.pid))",
  ]).stdout.toString();
  writeFileSync(lockPathOf(dir), JSON.stringify({ pid: Number(gone), command: "start", since: "then" }));
  const lock = lockEmbeddedDatabase(dir);
  lock.release();
  assert.ok(!existsSync(lockPathOf(dir)));
});

test("the same process opening the folder again is not refused, and does not free the first's lock", () => {
  const dir = folder();
  const lock = lockEmbeddedDatabase(dir);
  const again = lockEmbeddedDatabase(dir);
  again.release();
  assert.ok(existsSync(lockPathOf(dir)), "still held by the first");
  lock.release();
});
