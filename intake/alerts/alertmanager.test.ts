import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { upsertEntities } from "../../store/entities.ts";
import { Alertmanager, alertmanagerMissing } from "../../test-support/alertmanager/alertmanager.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { body, IntakeApp, ONCALL } from "../../test-support/intake/intake-app.ts";
import {
  match,
  type ScriptedModelServer,
  startScriptedModel,
} from "../../test-support/scripted-model/index.ts";
import { freeLoopbackPort } from "../../test-support/sshd/free-port.ts";

// A real Prometheus Alertmanager (Debian's prometheus-alertmanager) with a webhook_configs entry
// and bearer auth pointing at oikos: an alert posted to its API reaches oikos through its own
// webhook, opens one thread with the agent's findings and plan card, a repeat of the same alert
// opens no second thread, and resolving it posts into the same thread.

const TOKEN = "alertmanager-bearer-0123456789abcdef";

describe("a real Alertmanager's webhook into oikos", {
  skip: alertmanagerMissing(),
  timeout: 120_000,
}, () => {
  let model: ScriptedModelServer;
  let app: IntakeApp;
  let am: Alertmanager;
  let root = "";
  const alert = {
    labels: {
      alertname: "ContainerDown",
      severity: "critical",
      instance: "10.20.0.14:8080",
      container: "gitea",
    },
    annotations: { summary: "Container gitea is not running" },
  };

  before(async () => {
    model = await startScriptedModel({
      script: [
        {
          name: "research",
          when: match.lastUserMessage(/Alert from prom \(alertmanager\), firing: ContainerDown/),
          reply: { toolCalls: [{ name: "get_entity", arguments: { slug: "lxc:gitea" } }] },
        },
        {
          name: "findings-and-plan",
          when: match.endsWithToolResult("get_entity"),
          reply: {
            text: "Findings: lxc:gitea runs the gitea container, which stopped; nothing restarts it.",
            toolCalls: [
              {
                name: "propose_plan",
                arguments: {
                  steps: [
                    { title: "Start the gitea container", target: "lxc:gitea", risk: "config_mutation" },
                  ],
                },
              },
            ],
          },
        },
      ],
      fallback: { text: "noted" },
    });
    const port = await freeLoopbackPort();
    app = await IntakeApp.start({
      modelUrl: model.url,
      httpPort: port,
      alerts: {
        minIntervalMs: 0,
        sources: { prom: { kind: "alertmanager", token: TOKEN } },
        routes: [{ room: "$ROOM", mention: [ONCALL] }],
      },
    });
    await upsertEntities(
      app.store.db,
      [{ slug: "lxc:gitea", type: "lxc", name: "gitea", attributes: { "ssh.host": "10.20.0.14" } }],
      { by: "test" },
    );
    am = await Alertmanager.start({
      webhookUrl: `${app.url}/alerts/prom`,
      bearerToken: TOKEN,
      repeatInterval: "2s",
    });
  });
  after(async () => {
    await am?.stop();
    await app?.stop();
    await model?.close();
  });

  test("an alert posted to Alertmanager opens one thread with findings and a plan card", async () => {
    await am.postAlerts([alert]);
    const card = await eventually("the alert thread", () => app.topLevel()[0], 30_000);
    root = card.event_id;
    assert.match(body(card), /ContainerDown: Container gitea is not running/);
    assert.match(body(card), /lxc:gitea/);
    const plan = await eventually(
      "findings and the plan card",
      () => {
        const thread = app.inThread(root).map(body);
        return thread.some((t) => t.startsWith("Findings:")) && thread.find((t) => t.includes("📋 Plan"));
      },
      30_000,
    );
    assert.match(plan, /Start the gitea container/);
    const delivery = await app.store.db
      .selectFrom("alert_deliveries")
      .selectAll()
      .orderBy("received_at")
      .executeTakeFirstOrThrow();
    assert.equal(delivery.outcome, "opened");
    assert.equal((delivery.payload as { version?: string }).version, "4");
  });

  test("Alertmanager repeating the same alert posts into the same thread, never a second one", async () => {
    await am.postAlerts([alert]);
    await eventually(
      "a repeat notification from Alertmanager",
      async () =>
        (await app.store.db.selectFrom("alert_deliveries").select("outcome").execute()).some((d) =>
          ["repeated", "damped"].includes(d.outcome),
        ),
      30_000,
    );
    await eventually(
      "the repeat in the thread",
      () => app.inThread(root).some((e) => /Still firing/.test(body(e))),
      30_000,
    );
    assert.equal(app.topLevel().length, 1);
    assert.equal((await app.store.db.selectFrom("alert_groups").select("id").execute()).length, 1);
    assert.equal(model.requests.length, 2, "one investigation");
  });

  test("resolving the alert in Alertmanager posts the resolution into the same thread", async () => {
    await am.postAlerts([{ ...alert, endsAt: new Date(Date.now() - 1000) }]);
    const note = await eventually(
      "the resolution",
      () => app.inThread(root).find((e) => /^✅ Resolved/.test(body(e))),
      30_000,
    );
    assert.match(body(note), /plan above still waits/);
    assert.equal(app.topLevel().length, 1);
    const group = await app.store.db.selectFrom("alert_groups").selectAll().executeTakeFirstOrThrow();
    assert.equal(group.status, "resolved");
    assert.equal(am.log.includes("Notify for alerts failed"), false, am.log);
  });
});
