import assert from "node:assert/strict";
import { test } from "node:test";
import { alertBrief } from "./brief.ts";
import type { AlertNotification } from "./notification.ts";

const notification = (annotations: Record<string, string>): AlertNotification => ({
  groupKey: "g",
  status: "firing",
  title: "BackupFailed: restic could not reach the repository",
  severity: "warning",
  labels: { alertname: "BackupFailed", instance: "nas:9100" },
  annotations,
  alerts: [
    {
      fingerprint: "f",
      status: "firing",
      labels: { alertname: "BackupFailed", instance: "nas:9100" },
      annotations,
      startsAt: new Date("2026-12-01T06:00:00Z"),
      endsAt: null,
      generatorUrl: null,
    },
  ],
  truncated: 0,
  link: null,
});

test("the brief names the alert, its labels, the matched entities and the read-only first rule", () => {
  const brief = alertBrief({ name: "prom", kind: "alertmanager" }, notification({ summary: "repo locked" }), {
    slugs: ["vm:nas"],
    unmatched: [],
  });
  assert.match(brief, /^Alert from prom \(alertmanager\), firing: BackupFailed/);
  assert.match(brief, /Severity: warning\./);
  assert.match(brief, /Firing since 2026-12-01T06:00:00.000Z/);
  assert.match(brief, /instance=nas:9100/);
  assert.match(brief, /Entities these labels name: vm:nas\./);
  assert.match(brief, /without changing anything/);
});

test("an alert that names no entity says which labels were tried", () => {
  const brief = alertBrief({ name: "prom", kind: "alertmanager" }, notification({}), {
    slugs: [],
    unmatched: ["instance=nas:9100"],
  });
  assert.match(brief, /No entity in the knowledge graph matches these labels \(instance=nas:9100\)/);
});

test("secrets in annotations never reach the brief (the model's context)", () => {
  const brief = alertBrief(
    { name: "hook", kind: "generic" },
    notification({
      description:
        "restic failed: RESTIC_PASSWORD=hunter2-very-secret-pass and token ghp_0123456789abcdefghijABCDEFGHIJ012345",
    }),
    { slugs: [], unmatched: [] },
  );
  assert.ok(!brief.includes("hunter2-very-secret-pass"), brief);
  assert.ok(!brief.includes("ghp_0123456789abcdefghijABCDEFGHIJ012345"), brief);
  assert.match(brief, /\[REDACTED\]/);
});

test("a group of several alerts: what they share once, then each alert by what differs and its entity", () => {
  const alert = (instance: string, summary: string) => ({
    fingerprint: instance,
    status: "firing" as const,
    labels: { alertname: "DiskFull", severity: "warning", instance },
    annotations: { summary },
    startsAt: null,
    endsAt: null,
    generatorUrl: null,
  });
  const grouped: AlertNotification = {
    ...notification({}),
    title: "DiskFull",
    labels: { alertname: "DiskFull" },
    alerts: [alert("nas:9100", "/volume1 at 97%"), alert("pve1:9100", "rpool at 91%")],
  };
  const brief = alertBrief({ name: "prom", kind: "alertmanager" }, grouped, {
    slugs: ["vm:nas", "host:pve1"],
    unmatched: [],
    perAlert: [["vm:nas"], ["host:pve1"]],
  });
  const labelsLine = brief.split("\n").find((line) => line.startsWith("Labels: "));
  assert.equal(labelsLine, "Labels: alertname=DiskFull, severity=warning", "not the first alert's instance");
  assert.match(brief, /2 alerts in this group \(2 firing\), what differs between them:/);
  assert.match(brief, /^- firing: instance=nas:9100 → vm:nas — \/volume1 at 97%$/m);
  assert.match(brief, /^- firing: instance=pve1:9100 → host:pve1 — rpool at 91%$/m);
});
