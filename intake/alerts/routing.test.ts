import assert from "node:assert/strict";
import { test } from "node:test";
import { alertsSchema } from "../config.ts";
import { matches, parseMatcher } from "./matchers.ts";
import type { AlertNotification } from "./notification.ts";
import { routeAlert } from "./routing.ts";

function notification(
  labels: Record<string, string>,
  severity: string | null = labels.severity ?? null,
): AlertNotification {
  return {
    groupKey: "g",
    status: "firing",
    title: "t",
    severity,
    labels,
    annotations: {},
    alerts: [],
    truncated: 0,
    link: null,
  };
}

test("matchers in Alertmanager syntax: =, !=, =~ and !~ (anchored), quoted or not; a missing label reads as empty", () => {
  const m = (text: string) => {
    const parsed = parseMatcher(text);
    assert.ok(typeof parsed !== "string", parsed as string);
    return parsed;
  };
  const labels = { severity: "critical", instance: "web-12:9100", env: "prod" };
  assert.ok(matches(m('severity="critical"'), labels));
  assert.ok(!matches(m("severity=warning"), labels));
  assert.ok(matches(m('env!="dev"'), labels));
  assert.ok(matches(m('instance=~"web-\\\\d+:.*"'), labels));
  assert.ok(!matches(m('instance=~"web"'), labels), "regexes are anchored");
  assert.ok(matches(m('instance!~"db-.*"'), labels));
  assert.ok(matches(m('team=""'), labels));
  assert.ok(!matches(m('team=~".+"'), labels));
});

test("a matcher that is not one, or a bad regex, is a message", () => {
  assert.match(String(parseMatcher("severity")), /not a label matcher/);
  assert.match(String(parseMatcher('x=~"("')), /x=~/);
  assert.match(String(parseMatcher("1abc=x")), /not a label matcher/);
});

test("routes: the first whose source, label matchers and severity all hold; none → null", () => {
  const config = alertsSchema.parse({
    sources: {
      prom: { kind: "alertmanager", token: "t".repeat(20) },
      kuma: { kind: "uptime-kuma", token: "k".repeat(20) },
    },
    routes: [
      { match: { sources: ["kuma"] }, room: "C0KUMA" },
      {
        match: { labels: ['env="prod"', 'instance=~"db-.*"'] },
        room: "!db:example.org",
        mention: ["@dba:example.org"],
      },
      { match: { severity: ["critical"] }, room: "!pager:example.org", platform: "matrix" },
      { match: { labels: ['env="dev"'] }, room: "terminal", investigate: false },
    ],
  });
  const route = (source: string, labels: Record<string, string>) =>
    routeAlert(config.routes, source, notification(labels));
  assert.equal(route("kuma", { env: "prod", instance: "db-1" })?.room, "C0KUMA");
  assert.equal(route("kuma", {})?.platform, "slack");
  const db = route("prom", { env: "prod", instance: "db-1", severity: "critical" });
  assert.deepEqual(db && { room: db.room, platform: db.platform, mention: db.mention, index: db.index }, {
    room: "!db:example.org",
    platform: "matrix",
    mention: ["@dba:example.org"],
    index: 1,
  });
  assert.equal(
    route("prom", { env: "prod", instance: "web-1", severity: "CRITICAL" })?.room,
    "!pager:example.org",
  );
  const dev = route("prom", { env: "dev" });
  assert.deepEqual(dev && { platform: dev.platform, investigate: dev.investigate }, {
    platform: "shell",
    investigate: false,
  });
  assert.equal(route("prom", { env: "staging" }), null);
});

test("config: unauthenticated sources, unknown route sources, bad matchers and aliases are refused", () => {
  const bad = (value: unknown) => !alertsSchema.safeParse(value).success;
  assert.ok(bad({ sources: { prom: { kind: "alertmanager" } } }), "no secret");
  assert.ok(bad({ sources: { prom: { kind: "alertmanager", token: "short" } } }), "short token");
  assert.ok(
    bad({ sources: { prom: { kind: "alertmanager", hmacSecret: "s".repeat(20) } } }),
    "alertmanager has no HMAC",
  );
  assert.ok(
    bad({ sources: { "Bad Name": { kind: "generic", token: "t".repeat(20) } } }),
    "source name in a URL",
  );
  assert.ok(bad({ sources: {}, routes: [{ match: { sources: ["nope"] }, room: "!a:b" }] }), "unknown source");
  assert.ok(bad({ routes: [{ match: { labels: ["severity"] }, room: "!a:b" }] }), "bad matcher");
  assert.ok(bad({ routes: [{ room: "#ops:example.org" }] }), "room alias");
  assert.ok(bad({ routes: [{ room: "!a:b", typo: 1 }] }), "unknown key");
});
