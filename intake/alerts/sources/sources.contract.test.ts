import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { AlertNotification } from "../notification.ts";
import { parsePayload } from "./index.ts";

// Each source's documented webhook payload (fixtures in test-support/alert-payloads/, written from the senders'
// documentation) through its schema into the one notification shape.

const fixture = (name: string): unknown =>
  JSON.parse(
    readFileSync(new URL(`../../../test-support/alert-payloads/${name}.json`, import.meta.url), "utf8"),
  );

function notification(kind: Parameters<typeof parsePayload>[0], name: string): AlertNotification {
  const result = parsePayload(kind, fixture(name));
  assert.ok(result.ok, `${name} should parse: ${result.ok ? "" : result.issues.join("; ")}`);
  assert.equal(result.delivery.kind, "notification");
  return (result.delivery as { notification: AlertNotification }).notification;
}

test("Alertmanager v4 firing: group key, common labels, both alerts with Go timestamps, severity", () => {
  const n = notification("alertmanager", "alertmanager-firing");
  assert.equal(n.groupKey, '{}/{severity="critical"}:{alertname="ContainerDown"}');
  assert.equal(n.status, "firing");
  assert.equal(n.severity, "critical");
  assert.equal(n.title, "ContainerDown (2 alerts)");
  assert.deepEqual(n.labels, { alertname: "ContainerDown", job: "cadvisor", severity: "critical" });
  assert.equal(n.alerts.length, 2);
  assert.equal(n.alerts[0]!.fingerprint, "7be1ce5a1f3d2c90");
  assert.equal(n.alerts[0]!.labels.container, "gitea");
  assert.equal(n.alerts[0]!.startsAt?.toISOString(), "2026-11-30T21:14:05.123Z");
  assert.equal(n.alerts[0]!.endsAt, null, "Go's zero time is no end");
  assert.equal(n.link, "http://alertmanager.example.org:9093");
  assert.equal(n.truncated, 0);
});

test("Alertmanager v4 resolved: the group and every alert resolved, with their end", () => {
  const n = notification("alertmanager", "alertmanager-resolved");
  assert.equal(n.status, "resolved");
  assert.ok(n.alerts.every((a) => a.status === "resolved"));
  assert.equal(n.alerts[1]!.endsAt?.toISOString(), "2026-11-30T22:31:35.500Z");
});

test("Alertmanager: another payload version, a missing groupKey or no alerts is refused with the field named", () => {
  const base = fixture("alertmanager-firing") as Record<string, unknown>;
  for (const [change, field] of [
    [{ version: "3" }, "version"],
    [{ groupKey: undefined }, "groupKey"],
    [{ alerts: [] }, "alerts"],
    [{ status: "pending" }, "status"],
  ] as const) {
    const result = parsePayload("alertmanager", { ...base, ...change });
    assert.equal(result.ok, false, JSON.stringify(change));
    assert.ok(
      !result.ok && result.issues.some((i) => i.startsWith(field)),
      `${field}: ${JSON.stringify(result)}`,
    );
  }
  const alert = (base.alerts as Record<string, unknown>[])[0]!;
  const badLabel = parsePayload("alertmanager", { ...base, alerts: [{ ...alert, labels: { instance: 5 } }] });
  assert.ok(!badLabel.ok && badLabel.issues[0]!.startsWith("alerts.0.labels.instance"));
});

test("Grafana contact point: same group shape, summary in the title, links and values dropped from the notification", () => {
  const n = notification("grafana", "grafana-firing");
  assert.equal(n.status, "firing");
  assert.equal(n.title, "Disk almost full: /srv/backup on nas.home.arpa is 93% full");
  assert.equal(n.labels.instance, "nas.home.arpa");
  assert.equal(n.severity, null);
  assert.equal(
    n.alerts[0]!.generatorUrl,
    "https://grafana.example.org/alerting/grafana/c8a1f0d2/view?orgId=1",
  );
  assert.equal(n.annotations.description, "Backups will fail when the disk is full.");
});

test("Grafana's test notification and Uptime Kuma's Test button are tests, not alerts", () => {
  const grafana = parsePayload("grafana", fixture("grafana-test"));
  assert.ok(grafana.ok && grafana.delivery.kind === "test");
  const kuma = parsePayload("uptime-kuma", fixture("uptime-kuma-test"));
  assert.ok(kuma.ok && kuma.delivery.kind === "test");
});

test("Uptime Kuma down/up: one group per monitor, the URL's host as instance, the monitor's credentials never kept", () => {
  const down = parsePayload("uptime-kuma", fixture("uptime-kuma-down"));
  assert.ok(down.ok && down.delivery.kind === "notification");
  const n = down.delivery.notification;
  assert.equal(n.groupKey, "monitor-7");
  assert.equal(n.status, "firing");
  assert.equal(n.title, "Gitea is down: connect ECONNREFUSED 192.168.1.40:3000");
  assert.equal(n.labels.instance, "192.168.1.40");
  assert.equal(n.labels.monitor, "Gitea");
  assert.equal(n.alerts[0]!.startsAt?.toISOString(), "2026-12-01T06:42:17.514Z");
  const stored = JSON.stringify(down.delivery.stored);
  for (const secret of ["correct-horse-battery-staple", "kuma-probe-key", "basic_auth"]) {
    assert.ok(!stored.includes(secret), `stored payload must not keep ${secret}`);
  }
  const up = notification("uptime-kuma", "uptime-kuma-up");
  assert.equal(up.groupKey, "monitor-7");
  assert.equal(up.status, "resolved");
});

test("Uptime Kuma pending and maintenance beats are noted, not alerts", () => {
  const base = fixture("uptime-kuma-up") as { heartbeat: Record<string, unknown> };
  for (const status of [2, 3]) {
    const result = parsePayload("uptime-kuma", { ...base, heartbeat: { ...base.heartbeat, status } });
    assert.ok(result.ok && result.delivery.kind === "ignored");
  }
});

test("generic JSON: title, text, labels, severity; the same title and labels are one group, resolvable", () => {
  const n = notification("generic", "generic");
  assert.equal(n.title, "Backup job failed on nas");
  assert.equal(n.severity, "warning");
  assert.deepEqual(n.labels, { host: "nas", job: "restic-nightly", severity: "warning" });
  assert.equal(n.annotations.description, "restic exited 1: repository is locked");
  const again = parsePayload("generic", { ...(fixture("generic") as object), text: "other text" });
  assert.ok(again.ok && again.delivery.kind === "notification");
  assert.equal(again.delivery.notification.groupKey, n.groupKey);
  const resolved = parsePayload("generic", { ...(fixture("generic") as object), status: "resolved" });
  assert.ok(resolved.ok && resolved.delivery.kind === "notification");
  assert.equal(resolved.delivery.notification.status, "resolved");
  assert.equal(resolved.delivery.notification.groupKey, n.groupKey);
});

test("generic JSON: unknown fields, a missing title and non-string labels are refused", () => {
  for (const body of [
    { text: "no title" },
    { title: "x", extra: 1 },
    { title: "x", labels: { a: 1 } },
    [],
    "x",
  ]) {
    assert.equal(parsePayload("generic", body).ok, false, JSON.stringify(body));
  }
});
