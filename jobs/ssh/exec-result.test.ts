import assert from "node:assert/strict";
import { test } from "node:test";
import { asTimedOutWhenRemoteTimerFired, type ExecResult } from "./exec-result.ts";

const base: ExecResult = {
  exitCode: 124,
  signal: null,
  stdout: "",
  stderr: "",
  outputBytes: 0,
  truncated: false,
  durationMs: 1003,
  timedOut: false,
  cancelled: false,
};

test("the host's timeout(1) winning the race at the deadline still counts as timed out", () => {
  assert.equal(asTimedOutWhenRemoteTimerFired(base, 1000).timedOut, true);
});

test("a command that exits 124 by itself well before the deadline did not time out", () => {
  assert.equal(asTimedOutWhenRemoteTimerFired({ ...base, durationMs: 20 }, 1000).timedOut, false);
  assert.equal(asTimedOutWhenRemoteTimerFired({ ...base, exitCode: 1 }, 1000).timedOut, false);
});
