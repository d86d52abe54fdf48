import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_CHANGE_REASON, parseChangeRequest } from "./change-request.ts";

const CASES: [string, string | null][] = [
  ["changes: restart only the bridge, not the container", "restart only the bridge, not the container"],
  ["Changes: use pct reboot instead", "use pct reboot instead"],
  ["change: do it tomorrow", "do it tomorrow"],
  ["request changes: snapshot first", "snapshot first"],
  ["Request changes - snapshot first", "snapshot first"],
  ["changes requested: keep the old config", "keep the old config"],
  ["please request changes: one host at a time", "one host at a time"],
  ["✏️ restart the bridge only", "restart the bridge only"],
  ["📝: drain the node first", "drain the node first"],
  ["changes:\nstep 2 on host:b\nstep 3 later", "step 2 on host:b\nstep 3 later"],
  ["changes: ok", null],
  ["changes:", null],
  ["changes are fine, go ahead", null],
  ["what changes does this make?", null],
  ["no changes please", null],
  ["approve", null],
  ["deny", null],
  ["changes", null],
];

for (const [text, reason] of CASES) {
  test(`change request ${JSON.stringify(text)}`, () => {
    assert.deepEqual(parseChangeRequest(text), reason === null ? null : { reason });
  });
}

test("a very long reason is cut to the maximum", () => {
  const parsed = parseChangeRequest(`changes: ${"x".repeat(5000)}`);
  assert.equal(parsed?.reason.length, MAX_CHANGE_REASON);
});
