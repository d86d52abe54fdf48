import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import { authenticate } from "./auth.ts";

const TOKEN = "am-token-0123456789abcdef";
const SECRET = "grafana-hmac-secret-0123456789";
const body = Buffer.from('{"status":"firing"}');
const sign = (data: Buffer | string) => createHmac("sha256", SECRET).update(data).digest("hex");

test("bearer: the exact token passes; missing, wrong scheme, wrong or prefixed tokens do not", () => {
  const source = { kind: "alertmanager" as const, token: TOKEN };
  assert.equal(authenticate(source, { authorization: `Bearer ${TOKEN}` }, body), null);
  assert.equal(authenticate(source, { authorization: `bearer  ${TOKEN}` }, body), null);
  assert.equal(authenticate(source, {}, body), "missing_token");
  assert.equal(authenticate(source, { authorization: `Basic ${TOKEN}` }, body), "bad_token");
  assert.equal(authenticate(source, { authorization: `Bearer ${TOKEN}x` }, body), "bad_token");
  assert.equal(authenticate(source, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, body), "bad_token");
  assert.equal(authenticate(source, { authorization: "Bearer" }, body), "bad_token");
});

test("Grafana HMAC: hex SHA-256 of the body in X-Grafana-Alerting-Signature; another body or secret fails", () => {
  const source = { kind: "grafana" as const, hmacSecret: SECRET };
  assert.equal(authenticate(source, { "x-grafana-alerting-signature": sign(body) }, body), null);
  assert.equal(
    authenticate(source, { "x-grafana-alerting-signature": sign(body).toUpperCase() }, body),
    null,
  );
  assert.equal(authenticate(source, { "x-grafana-alerting-signature": sign("{}") }, body), "bad_signature");
  assert.equal(authenticate(source, {}, body), "missing_signature");
});

test("Grafana HMAC with a timestamp header: signs `<ts>:<body>`, refuses a stale or missing timestamp", () => {
  const source = {
    kind: "grafana" as const,
    hmacSecret: SECRET,
    timestampHeader: "X-Grafana-Alerting-Signature-Timestamp",
  };
  const now = new Date("2026-12-01T12:00:00Z");
  const ts = String(now.getTime() / 1000);
  const signed = Buffer.concat([Buffer.from(`${ts}:`), body]);
  const headers = {
    "x-grafana-alerting-signature": sign(signed),
    "x-grafana-alerting-signature-timestamp": ts,
  };
  assert.equal(authenticate(source, headers, body, now), null);
  assert.equal(
    authenticate(source, { ...headers, "x-grafana-alerting-signature": sign(body) }, body, now),
    "bad_signature",
  );
  assert.equal(authenticate(source, headers, body, new Date(now.getTime() + 10 * 60_000)), "stale_timestamp");
  assert.equal(
    authenticate(source, { "x-grafana-alerting-signature": sign(signed) }, body, now),
    "missing_signature",
  );
});

test("a source with both a token and an HMAC secret needs both", () => {
  const source = { kind: "generic" as const, token: TOKEN, hmacSecret: SECRET };
  assert.equal(
    authenticate(
      source,
      { authorization: `Bearer ${TOKEN}`, "x-oikos-signature": `sha256=${sign(body)}` },
      body,
    ),
    null,
  );
  assert.equal(authenticate(source, { authorization: `Bearer ${TOKEN}` }, body), "missing_signature");
  assert.equal(authenticate(source, { "x-oikos-signature": sign(body) }, body), "missing_token");
});
