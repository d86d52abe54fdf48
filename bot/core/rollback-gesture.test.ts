import assert from "node:assert/strict";
import { test } from "node:test";
import { isRollbackReaction } from "./rollback-gesture.ts";

test("⏪ in the spellings platforms send asks for a rollback; approve/deny reactions do not", () => {
  for (const key of ["⏪", "⏪\u{fe0f}", ":rewind:", "rewind"]) assert.ok(isRollbackReaction(key), key);
  for (const key of ["✅", "❌", "👍", ":arrow_backward:", "◀"])
    assert.equal(isRollbackReaction(key), false, key);
});
