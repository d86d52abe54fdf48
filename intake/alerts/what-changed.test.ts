import assert from "node:assert/strict";
import { test } from "node:test";
import { alertChanges } from "./what-changed.ts";

test("nothing changed: no changes, whatever the key order", () => {
  const a = { labels: { host: "nas", severity: "critical" }, annotations: { summary: "down" } };
  const b = { labels: { severity: "critical", host: "nas" }, annotations: { summary: "down" } };
  assert.deepEqual(alertChanges(a, b), []);
});

test("added, removed and changed labels and annotations, labels first, keys in order", () => {
  const before = {
    labels: { host: "nas", severity: "warning" },
    annotations: { summary: "disk 91% full", runbook: "https://wiki/disk" },
  };
  const after = {
    labels: { host: "nas", severity: "critical", pool: "tank" },
    annotations: { summary: "disk 99% full", description: "writes are failing" },
  };
  assert.deepEqual(alertChanges(before, after), [
    { field: "label", key: "pool", was: null, now: "tank" },
    { field: "label", key: "severity", was: "warning", now: "critical" },
    { field: "annotation", key: "description", was: null, now: "writes are failing" },
    { field: "annotation", key: "runbook", was: "https://wiki/disk", now: null },
    { field: "annotation", key: "summary", was: "disk 91% full", now: "disk 99% full" },
  ]);
});

test("an empty value is a value: set to empty is a change", () => {
  assert.deepEqual(
    alertChanges({ labels: {}, annotations: { a: "x" } }, { labels: {}, annotations: { a: "" } }),
    [{ field: "annotation", key: "a", was: "x", now: "" }],
  );
});
