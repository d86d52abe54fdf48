import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ConfigError } from "../base/errors.ts";
import { loadConfig } from "./config.ts";

const withYaml = (yaml: string) => {
  const dir = mkdtempSync(join(tmpdir(), "oikos-config-intake-"));
  writeFileSync(join(dir, "oikos.yaml"), yaml);
  return () => loadConfig({ env: {}, cwd: dir });
};

test("alerts and schedules from oikos.yaml; the knobs also from the environment", () => {
  const dir = mkdtempSync(join(tmpdir(), "oikos-config-intake-"));
  writeFileSync(
    join(dir, "oikos.yaml"),
    [
      "alerts:",
      "  sources:",
      "    prom: { kind: alertmanager, token: a-long-random-token-123 }",
      "  routes:",
      "    - { match: { labels: ['severity=\"critical\"'] }, room: '!ops:example.org', mention: ['@erin:example.org'] }",
      "schedules:",
      "  - { name: weekly-audit, cron: '0 7 * * 1', tz: Europe/Berlin, room: '!ops:example.org', prompt: Audit the fleet }",
    ].join("\n"),
  );
  const config = loadConfig({ env: { OIKOS_ALERTS_MAX_CONCURRENT: "5" }, cwd: dir });
  assert.equal(config.alerts.maxConcurrent, 5);
  assert.equal(config.alerts.minIntervalMs, 600_000);
  assert.equal(config.alerts.sources.prom?.kind, "alertmanager");
  assert.equal(config.alerts.routes[0]?.match.labels?.[0]?.name, "severity");
  assert.equal(config.schedules[0]?.quiet, "line");
});

test("a bad schedule or alert setting stops start-up naming where it is", () => {
  const cases: [string, RegExp][] = [
    ["schedules:\n  - { name: a, cron: '61 * * * *', room: '!r:x', prompt: p }", /schedules\.0\.cron: .*61/],
    ["schedules:\n  - { name: a, cron: '* * *', room: '!r:x', prompt: p }", /3 field/],
    ["schedules:\n  - { name: a, cron: '@daily', tz: Nowhere/Land, room: '!r:x', prompt: p }", /time zone/],
    [
      "schedules:\n  - { name: a, cron: '@daily', room: '!r:x', prompt: p }\n  - { name: a, cron: '@daily', room: '!r:x', prompt: q }",
      /named twice/,
    ],
    ["alerts:\n  sources:\n    prom: { kind: alertmanager }", /token.*hmacSecret/],
    ["alerts:\n  routes:\n    - { match: { labels: ['severity'] }, room: '!r:x' }", /not a label matcher/],
    [
      "alerts:\n  sources:\n    p: { kind: nagios, token: a-long-random-token-123 }",
      /alerts\.sources\.p\.kind/,
    ],
  ];
  for (const [yaml, message] of cases) {
    assert.throws(
      withYaml(yaml),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      yaml,
    );
  }
});
