import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { IntakeApp } from "../../test-support/intake/intake-app.ts";
import { type ScriptedModelServer, startScriptedModel } from "../../test-support/scripted-model/index.ts";

// The webhook receivers as a sender meets them, over HTTP on the composed app: each source's
// documented payload accepted with its own secret; wrong or missing secrets, oversized,
// malformed and misshapen bodies refused with the right 4xx and nothing stored.

const TOKENS = {
  am: "alertmanager-token-0123456789",
  kuma: "uptime-kuma-token-0123456789",
  hook: "generic-hook-token-0123456789",
};
const GRAFANA_SECRET = "grafana-hmac-secret-0123456789";
const MAX_BODY = 4096;
const fixture = (name: string) =>
  readFileSync(new URL(`../../test-support/alert-payloads/${name}.json`, import.meta.url), "utf8");
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const grafanaSignature = (raw: string) => ({
  "x-grafana-alerting-signature": createHmac("sha256", GRAFANA_SECRET).update(raw).digest("hex"),
});

describe("alert webhook receivers over HTTP", () => {
  let model: ScriptedModelServer;
  let app: IntakeApp;
  const deliveries = async () =>
    (await app.store.db.selectFrom("alert_deliveries").select(["source", "outcome"]).execute()).length;

  before(async () => {
    model = await startScriptedModel({ script: [], fallback: { text: "noted" } });
    app = await IntakeApp.start({
      modelUrl: model.url,
      alerts: {
        maxBodyBytes: MAX_BODY,
        sources: {
          am: { kind: "alertmanager", token: TOKENS.am },
          graf: { kind: "grafana", hmacSecret: GRAFANA_SECRET },
          kuma: { kind: "uptime-kuma", token: TOKENS.kuma },
          hook: { kind: "generic", token: TOKENS.hook },
        },
        routes: [],
      },
    });
  });
  after(async () => {
    await app?.stop();
    await model?.close();
  });

  test("each source's documented payload is accepted with its own secret (202) and stored", async () => {
    const cases = [
      ["am", "alertmanager-firing", bearer(TOKENS.am)],
      ["graf", "grafana-firing", grafanaSignature(fixture("grafana-firing"))],
      ["kuma", "uptime-kuma-down", bearer(TOKENS.kuma)],
      ["hook", "generic", bearer(TOKENS.hook)],
    ] as const;
    for (const [source, name, headers] of cases) {
      const answer = await app.post(source, fixture(name), headers);
      assert.equal(answer.status, 202, `${source}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.outcome, "unrouted", "no route is configured in this suite");
    }
    const groups = await app.store.db
      .selectFrom("alert_groups")
      .select(["source", "status"])
      .orderBy("source")
      .execute();
    assert.deepEqual(
      groups.map((g) => g.source),
      ["am", "graf", "hook", "kuma"],
    );
    const kuma = await app.store.db
      .selectFrom("alert_deliveries")
      .select("payload")
      .where("source", "=", "kuma")
      .executeTakeFirstOrThrow();
    assert.ok(
      !JSON.stringify(kuma.payload).includes("correct-horse-battery-staple"),
      "the monitor's own credentials are not kept",
    );
  });

  test("test notifications (Uptime Kuma's Test button, Grafana's test) are acknowledged and open nothing", async () => {
    const kuma = await app.post("kuma", fixture("uptime-kuma-test"), bearer(TOKENS.kuma));
    assert.deepEqual([kuma.status, kuma.body.outcome], [202, "test"]);
    const graf = await app.post("graf", fixture("grafana-test"), grafanaSignature(fixture("grafana-test")));
    assert.deepEqual([graf.status, graf.body.outcome], [202, "test"]);
  });

  test("a missing, wrong or another source's secret is refused with 401 and stores nothing", async () => {
    const before = await deliveries();
    const refusals = [
      await app.post("am", fixture("alertmanager-firing")),
      await app.post("am", fixture("alertmanager-firing"), bearer("wrong-token-0123456789")),
      await app.post("am", fixture("alertmanager-firing"), bearer(TOKENS.kuma)),
      await app.post("am", fixture("alertmanager-firing"), { authorization: TOKENS.am }),
      await app.post("graf", fixture("grafana-firing")),
      await app.post("graf", fixture("grafana-firing"), grafanaSignature(fixture("grafana-test"))),
      await app.post("graf", fixture("grafana-firing"), bearer(GRAFANA_SECRET)),
    ];
    for (const answer of refusals) {
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
      assert.equal(answer.body.error, "unauthorized");
      assert.ok(!JSON.stringify(answer.body).includes(TOKENS.am), "the answer never echoes a secret");
    }
    assert.equal(await deliveries(), before);
  });

  test("an oversized body is refused with 413 before it is read whole, with or without a content-length", async () => {
    const big = JSON.stringify({ title: "x", text: "y".repeat(MAX_BODY) });
    const declared = await app.post("hook", big, bearer(TOKENS.hook));
    assert.equal(declared.status, 413);
    assert.equal(declared.body.error, "payload_too_large");
    const chunked = await postChunked(`${app.url}/alerts/hook`, big, bearer(TOKENS.hook));
    assert.equal(chunked.status, 413);
  });

  test("malformed JSON is 400; a body of the wrong shape is 422 naming the fields", async () => {
    const malformed = await app.post("am", '{"version": "4", "alerts": [', bearer(TOKENS.am));
    assert.deepEqual([malformed.status, malformed.body.error], [400, "malformed_json"]);
    const wrongShape = await app.post("am", fixture("grafana-firing"), bearer(TOKENS.am));
    assert.equal(wrongShape.status, 422);
    assert.equal(wrongShape.body.error, "invalid_payload");
    assert.ok((wrongShape.body.issues as string[]).some((i) => i.startsWith("version")));
    const generic = await app.post("hook", { text: "no title" }, bearer(TOKENS.hook));
    assert.equal(generic.status, 422);
    assert.ok((generic.body.issues as string[]).some((i) => i.startsWith("title")));
  });

  test("an unknown source is 404, another method 405, another content type 415", async () => {
    assert.equal((await app.post("nope", fixture("generic"), bearer(TOKENS.hook))).status, 404);
    for (const path of ["%E0%A4%A", "hook/extra", "__proto__", "constructor"]) {
      assert.equal((await app.post(path, fixture("generic"), bearer(TOKENS.hook))).status, 404, path);
    }
    const get = await fetch(`${app.url}/alerts/hook`, { headers: bearer(TOKENS.hook) });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST, PUT");
    const form = await fetch(`${app.url}/alerts/hook`, {
      method: "POST",
      headers: { ...bearer(TOKENS.hook), "content-type": "application/x-www-form-urlencoded" },
      body: "title=x",
    });
    assert.equal(form.status, 415);
  });
});

/** A POST without content-length (chunked), as a streaming sender does. */
function postChunked(
  url: string,
  payload: string,
  headers: Record<string, string>,
): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on("error", (error) => {
      // The server may close the connection after answering 413 while we still write.
      if (
        (error as NodeJS.ErrnoException).code === "EPIPE" ||
        (error as NodeJS.ErrnoException).code === "ECONNRESET"
      )
        return;
      reject(error);
    });
    for (let i = 0; i < payload.length; i += 1024) req.write(payload.slice(i, i + 1024));
    req.end();
  });
}
