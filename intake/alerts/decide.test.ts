import assert from "node:assert/strict";
import { test } from "node:test";
import { decide } from "./decide.ts";

const NOW = new Date("2026-12-01T12:00:00Z");
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const TEN_MIN = 10 * 60_000;

test("firing with nothing under the key opens a group", () => {
  assert.deepEqual(decide(undefined, "firing", NOW, TEN_MIN), { action: "open" });
});

test("a repeat of a firing group posts only when its thread was quiet for the minimum interval", () => {
  const firing = (posted: number | null) => ({
    status: "firing" as const,
    lastPostedAt: posted === null ? null : ago(posted),
    resolvedAt: null,
  });
  assert.deepEqual(decide(firing(2), "firing", NOW, TEN_MIN), { action: "repeat", post: false });
  assert.deepEqual(decide(firing(10), "firing", NOW, TEN_MIN), { action: "repeat", post: true });
  assert.deepEqual(decide(firing(null), "firing", NOW, TEN_MIN), { action: "repeat", post: true });
  assert.deepEqual(decide(firing(0), "firing", NOW, 0), { action: "repeat", post: true });
});

test("firing again soon after resolving is flapping (same thread); long after, a new group", () => {
  const resolved = (minutes: number, posted = minutes) => ({
    status: "resolved" as const,
    resolvedAt: ago(minutes),
    lastPostedAt: ago(posted),
  });
  assert.deepEqual(decide(resolved(3), "firing", NOW, TEN_MIN), { action: "refire", post: false });
  assert.deepEqual(decide(resolved(3, 30), "firing", NOW, TEN_MIN), { action: "refire", post: true });
  assert.deepEqual(decide(resolved(11), "firing", NOW, TEN_MIN), { action: "open" });
  assert.deepEqual(
    decide({ status: "resolved", resolvedAt: null, lastPostedAt: null }, "firing", NOW, TEN_MIN),
    { action: "open" },
  );
});

test("resolved resolves a firing group and is stale otherwise", () => {
  assert.deepEqual(
    decide({ status: "firing", lastPostedAt: ago(1), resolvedAt: null }, "resolved", NOW, TEN_MIN),
    { action: "resolve" },
  );
  assert.deepEqual(
    decide({ status: "resolved", lastPostedAt: ago(1), resolvedAt: ago(1) }, "resolved", NOW, TEN_MIN),
    { action: "stale" },
  );
  assert.deepEqual(decide(undefined, "resolved", NOW, TEN_MIN), { action: "stale" });
});
