import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeDirEntries } from "./merge-expectations.ts";
import type { PreviewExpectation } from "./types.ts";

const entry = (name: string) => ({ name, inode: `1:${name}`, type: "f", size: 2 });
const dirEntries = (
  dir: string,
  named: string[],
  others: string[],
  identity: "login" | "sudo" = "login",
): PreviewExpectation => ({ kind: "dir_entries", dir, identity, named, others: others.map(entry) });
const hash: PreviewExpectation = { kind: "file_hash", path: "/etc/f", sha256After: null };

test("two parts writing in one directory leave one check naming both files (sed -i … f g)", () => {
  const merged = mergeDirEntries([
    dirEntries("/etc", ["f"], ["g", "h"]),
    hash,
    dirEntries("/etc", ["g"], ["f", "h"]),
  ]);
  assert.deepEqual(merged, [dirEntries("/etc", ["f", "g"], ["h"]), hash]);
});

test("a file no part names stays flagged, from whichever part saw it", () => {
  const merged = mergeDirEntries([dirEntries("/etc", ["f"], ["g"]), dirEntries("/etc", ["g"], ["f", "new"])]);
  assert.deepEqual(merged, [dirEntries("/etc", ["f", "g"], ["new"])]);
});

test("other directories and other users' views are not merged", () => {
  const input = [
    dirEntries("/etc", ["f"], ["g"]),
    dirEntries("/srv", ["g"], []),
    dirEntries("/etc", ["g"], ["f"], "sudo"),
  ];
  assert.deepEqual(mergeDirEntries(input), input);
});

test("the input is not changed", () => {
  const first = dirEntries("/etc", ["f"], ["g"]);
  const copy = structuredClone(first);
  mergeDirEntries([first, dirEntries("/etc", ["g"], ["f"])]);
  assert.deepEqual(first, copy);
});
