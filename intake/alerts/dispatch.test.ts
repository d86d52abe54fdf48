import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually } from "../../test-support/bot/eventually.ts";
import { body, IntakeApp } from "../../test-support/intake/intake-app.ts";
import {
  match,
  type ScriptedModelServer,
  startScriptedModel,
} from "../../test-support/scripted-model/index.ts";

// alerts.maxConcurrent and flap damping through the composed app: a second alert waits while the
// first is investigated and starts when the first reports; a flapping group stays one thread and
// damped updates come back as one digest.

const TOKEN = "generic-hook-token-0123456789";
const bearer = { authorization: `Bearer ${TOKEN}` };

describe("alert investigations are capped and flapping is damped", () => {
  let model: ScriptedModelServer;
  let app: IntakeApp;
  const release = Promise.withResolvers<void>();
  const plan = (title: string) => ({
    toolCalls: [
      {
        name: "propose_plan",
        arguments: { steps: [{ title, target: "local:oikos", risk: "config_mutation" as const }] },
      },
    ],
  });

  before(async () => {
    model = await startScriptedModel({
      script: [
        {
          name: "first",
          when: match.lastUserMessage(/Disk full on nas/),
          reply: { ...plan("Free space on nas"), hold: release.promise },
        },
        {
          name: "second",
          when: match.lastUserMessage(/Certificate expires/),
          reply: plan("Renew the certificate"),
        },
      ],
      fallback: { text: "noted" },
    });
    app = await IntakeApp.start({
      modelUrl: model.url,
      alerts: {
        maxConcurrent: 1,
        minIntervalMs: 1_500,
        sources: { hook: { kind: "generic", token: TOKEN } },
        routes: [{ room: "$ROOM" }],
      },
    });
  });
  after(async () => {
    release.resolve();
    await app?.stop();
    await model?.close();
  });

  test("with one slot, a second alert waits until the first investigation has its plan", async () => {
    assert.equal((await app.post("hook", { title: "Disk full on nas" }, bearer)).body.outcome, "opened");
    await model.waitForRequests(1);
    assert.equal(
      (await app.post("hook", { title: "Certificate expires in 3 days" }, bearer)).body.outcome,
      "opened",
    );
    const second = await eventually("the second alert's card", () =>
      app.topLevel().find((e) => body(e).includes("Certificate expires")),
    );
    assert.match(body(second), /once one of the 1 running alert investigations has reported/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(model.requests.length, 1, "the second investigation has not started");
    release.resolve();
    await eventually(
      "the second investigation",
      () => model.requests.some((r) => r.step === "second"),
      20_000,
    );
    const groups = await app.store.db
      .selectFrom("alert_groups")
      .select(["title", "investigation"])
      .orderBy("first_seen_at")
      .execute();
    await eventually("both reported", async () =>
      (await app.store.db.selectFrom("alert_groups").select("investigation").execute()).every(
        (g) => g.investigation === "reported",
      ),
    );
    assert.equal(groups.length, 2);
  });

  test("a flapping alert stays one thread; updates inside the interval come back as one digest", async () => {
    const alert = { title: "NAS unreachable", labels: { host: "nas" } };
    assert.equal((await app.post("hook", alert, bearer)).body.outcome, "opened");
    const root = await eventually("its thread", () =>
      app.topLevel().find((e) => body(e).includes("NAS unreachable")),
    );
    assert.equal((await app.post("hook", { ...alert, status: "resolved" }, bearer)).body.outcome, "resolved");
    assert.equal(
      (await app.post("hook", alert, bearer)).body.outcome,
      "damped",
      "fired again right after resolving",
    );
    assert.equal((await app.post("hook", alert, bearer)).body.outcome, "damped");
    const digest = await eventually(
      "one digest of the held-back updates",
      () => app.inThread(root.event_id).find((e) => body(e).startsWith("🔁 2 update(s) held back")),
      10_000,
    );
    assert.match(body(digest), /now firing, fired again 1 time\(s\) after resolving/);
    assert.equal(app.topLevel().filter((e) => body(e).includes("NAS unreachable")).length, 1, "one thread");
    const sessions = await app.store.db
      .selectFrom("sessions")
      .select("id")
      .where("goal", "like", "NAS unreachable%")
      .execute();
    assert.equal(sessions.length, 1, "no second investigation for a flap");
  });
});
