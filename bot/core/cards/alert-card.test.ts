import assert from "node:assert/strict";
import { test } from "node:test";
import { insertAlertGroup, recordAlerts } from "../../../store/alert-groups.ts";
import { createTestStore } from "../../../test-support/store.ts";
import { buildAlertCard } from "./alert-card.ts";

test("a group of several alerts: each line says what tells that alert apart, every entity is named", async () => {
  const store = await createTestStore();
  try {
    const now = new Date("2026-12-01T06:00:00Z");
    const group = await insertAlertGroup(
      store.db,
      {
        source: "prom",
        sourceKind: "alertmanager",
        groupKey: '{}:{alertname="DiskFull"}',
        title: "DiskFull",
        severity: "warning",
        labels: { alertname: "DiskFull" },
        annotations: {},
        entities: ["vm:nas", "host:pve1"],
        unmatched: ["instance=10.9.9.9:9100"],
        brief: "brief",
        platform: "matrix",
        room: "!ops",
        mentions: [],
        investigate: false,
        investigation: "skipped",
      },
      now,
    );
    assert.ok(group);
    const alert = (instance: string, mountpoint: string) => ({
      fingerprint: `${instance}${mountpoint}`,
      status: "firing" as const,
      labels: { alertname: "DiskFull", job: "node", instance, mountpoint },
      annotations: {},
      startsAt: now,
      endsAt: null,
      generatorUrl: null,
    });
    await recordAlerts(
      store.db,
      group,
      [alert("nas:9100", "/volume1"), alert("pve1:9100", "/"), alert("pve1:9100", "/var/lib/vz")],
      now,
    );
    const card = await buildAlertCard(store.db, group, 0);
    const text = card.lines.join("\n");
    assert.match(
      text,
      /labels: `job=node, alertname=DiskFull`/,
      "what every alert shares, not the first alert's",
    );
    assert.match(text, /3 alerts, 3 firing:/);
    assert.match(text, /🔥 `instance=nas:9100, mountpoint=\/volume1`/);
    assert.match(text, /🔥 `instance=pve1:9100, mountpoint=\/`/);
    assert.match(text, /🔥 `instance=pve1:9100, mountpoint=\/var\/lib\/vz`/);
    const alertLines = card.lines.filter((line) => line.startsWith("  🔥"));
    assert.equal(new Set(alertLines).size, 3, "no two alerts look the same");
    assert.match(text, /entities: `vm:nas`, `host:pve1`/);
  } finally {
    await store.dispose();
  }
});
