import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { upsertEntities } from "../../store/entities.ts";
import { eventually } from "../../test-support/bot/eventually.ts";
import { body, IntakeApp, ONCALL } from "../../test-support/intake/intake-app.ts";
import { defaultPushVerdict } from "../../test-support/matrix-double/push-rules.ts";
import {
  match,
  type ScriptedModelServer,
  startScriptedModel,
} from "../../test-support/scripted-model/index.ts";

// An Alertmanager group through the composed app: the webhook opens one thread in the Matrix
// double (the alert card, the on-call person mentioned), the agent (scripted model) researches
// read-only and posts findings and a plan card; a repeat posts into the same thread; the
// resolution says so in the thread and on the plan card that still waits.

const TOKEN = "alertmanager-token-0123456789";
const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../test-support/alert-payloads/${name}.json`, import.meta.url), "utf8"),
  ) as Record<string, unknown>;
const bearer = { authorization: `Bearer ${TOKEN}` };

describe("an alert becomes one investigated thread", () => {
  let model: ScriptedModelServer;
  let app: IntakeApp;
  let root = "";

  before(async () => {
    model = await startScriptedModel({
      script: [
        {
          name: "research",
          when: match.lastUserMessage(/Alert from am \(alertmanager\), firing/),
          reply: { toolCalls: [{ name: "search_knowledge", arguments: { query: "gitea container" } }] },
        },
        {
          name: "findings-and-plan",
          when: match.endsWithToolResult("search_knowledge"),
          reply: {
            text: "Findings: the gitea and runner containers on lxc:gitea stopped at 22:14; nothing restarted them.",
            toolCalls: [
              {
                name: "set_goal",
                arguments: { goal: "Get the gitea containers on lxc:gitea running again" },
              },
              {
                name: "propose_plan",
                arguments: {
                  steps: [
                    {
                      title: "Start the gitea and runner containers",
                      target: "lxc:gitea",
                      risk: "config_mutation",
                    },
                    { title: "Check both containers run", target: "lxc:gitea", risk: "read_only" },
                  ],
                },
              },
            ],
          },
        },
      ],
      fallback: { text: "noted" },
    });
    app = await IntakeApp.start({
      modelUrl: model.url,
      alerts: {
        minIntervalMs: 0,
        sources: { am: { kind: "alertmanager", token: TOKEN } },
        routes: [{ match: { labels: ['severity="critical"'] }, room: "$ROOM", mention: [ONCALL] }],
      },
    });
    await upsertEntities(
      app.store.db,
      [{ slug: "lxc:gitea", type: "lxc", name: "gitea", attributes: { "ssh.host": "10.20.0.14" } }],
      { by: "test" },
    );
  });
  after(async () => {
    await app?.stop();
    await model?.close();
    assert.deepEqual(app.double.violations, [], "every event the bot sent passes the spec schemas");
  });

  test("a firing group opens one thread: the alert card with its entities and mention, findings, a plan card", async () => {
    const answer = await app.post("am", fixture("alertmanager-firing"), bearer);
    assert.equal(answer.status, 202);
    assert.equal(answer.body.outcome, "opened");
    const card = await eventually("the alert card", () => app.topLevel()[0]);
    root = card.event_id;
    assert.match(body(card), /ContainerDown/);
    assert.match(body(card), /lxc:gitea/);
    assert.match(body(card), new RegExp(ONCALL));
    assert.deepEqual(
      card.content["m.mentions"],
      { user_ids: [ONCALL] },
      "the route's on-call person is notified",
    );
    assert.deepEqual(
      defaultPushVerdict(app.double.state, card, ONCALL),
      { rule: ".m.rule.is_user_mention", notify: true, highlight: true },
      "…under the spec's default push rules (an m.notice would be silenced first)",
    );
    const plan = await eventually("findings and a plan card in the thread", () => {
      const thread = app.inThread(root).map(body);
      return thread.some((t) => t.startsWith("Findings:")) && thread.find((t) => t.includes("📋 Plan"));
    });
    assert.match(plan, /needs your approval/);
    assert.match(plan, /Start the gitea and runner containers/);
    const alerts = await app.store.db.selectFrom("alerts").selectAll().orderBy("fingerprint").execute();
    assert.deepEqual(
      alerts.map((a) => [a.source, a.fingerprint, a.status, a.labels.container]),
      [
        ["am", "0c55d1e3aa71b2f4", "firing", "runner"],
        ["am", "7be1ce5a1f3d2c90", "firing", "gitea"],
      ],
    );
    assert.equal(alerts[0]!.group_key, '{}/{severity="critical"}:{alertname="ContainerDown"}');
    const session = await app.store.db
      .selectFrom("sessions")
      .selectAll()
      .where("thread", "=", root)
      .executeTakeFirstOrThrow();
    assert.equal(session.created_by, "alert:am");
    assert.deepEqual(
      model.requests.map((r) => r.step),
      ["research", "findings-and-plan"],
    );
  });

  test("the same alert again posts into that thread and opens no second one", async () => {
    const answer = await app.post("am", fixture("alertmanager-firing"), bearer);
    assert.equal(answer.status, 202);
    assert.equal(answer.body.outcome, "repeated");
    await eventually("the repeat in the thread", () =>
      app.inThread(root).some((e) => /Still firing/.test(body(e))),
    );
    assert.equal(app.topLevel().length, 1, "one thread for the group");
    assert.equal(
      await app.store.db
        .selectFrom("sessions")
        .select("id")
        .execute()
        .then((r) => r.length),
      1,
    );
    assert.equal(model.requests.length, 2, "no second investigation");
  });

  test("an alert that joins the group later (another host, same alertname) names its entity too", async () => {
    await upsertEntities(
      app.store.db,
      [{ slug: "lxc:media", type: "lxc", name: "media", attributes: { "ssh.host": "10.20.0.15" } }],
      { by: "test" },
    );
    const grown = fixture("alertmanager-firing") as { alerts: Record<string, unknown>[] };
    grown.alerts.push({
      status: "firing",
      labels: {
        alertname: "ContainerDown",
        container: "jellyfin",
        instance: "10.20.0.15:8080",
        job: "cadvisor",
        severity: "critical",
      },
      annotations: { summary: "Container jellyfin on 10.20.0.15 is not running" },
      startsAt: "2026-11-30T22:20:05Z",
      endsAt: "0001-01-01T00:00:00Z",
      generatorURL: "http://prometheus.example.org:9090/graph",
      fingerprint: "5d0a7c3e91b2f4aa",
    });
    assert.equal((await app.post("am", grown, bearer)).body.outcome, "repeated");
    const group = await app.store.db.selectFrom("alert_groups").selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(group.entities, ["lxc:gitea", "lxc:media"]);
    await eventually("the alert card edited to name it, and the alert by what differs", () =>
      app.botEvents().some((e) => {
        const edited = String((e.content["m.new_content"] as { body?: string } | undefined)?.body ?? "");
        return edited.includes("container=jellyfin") && edited.includes("`lxc:media`");
      }),
    );
  });

  test("a repeat whose annotations changed posts what changed; an unchanged repeat says only that it fires", async () => {
    const changed = JSON.parse(JSON.stringify(fixture("alertmanager-firing")));
    changed.commonAnnotations = {
      ...changed.commonAnnotations,
      summary: "gitea and runner restarted 3 times in 10 minutes",
    };
    const answer = await app.post("am", changed, bearer);
    assert.equal(answer.body.outcome, "repeated");
    const post = await eventually("the change in the thread", () =>
      app.inThread(root).find((e) => /and it changed/.test(body(e))),
    );
    assert.match(
      body(post),
      /annotation `summary` added: “gitea and runner restarted 3 times in 10 minutes”/,
    );
    const group = await app.store.db.selectFrom("alert_groups").selectAll().executeTakeFirstOrThrow();
    assert.equal(group.annotations.summary, "gitea and runner restarted 3 times in 10 minutes");
    const again = await app.post("am", changed, bearer);
    assert.equal(again.body.outcome, "repeated");
    await eventually(
      "the unchanged repeat",
      () => app.inThread(root).filter((e) => /Still firing: notification/.test(body(e))).length >= 2,
    );
    assert.equal(app.inThread(root).filter((e) => /and it changed/.test(body(e))).length, 1);
  });

  test("resolving posts into the same thread and the waiting plan card says the alert resolved", async () => {
    const answer = await app.post("am", fixture("alertmanager-resolved"), bearer);
    assert.equal(answer.body.outcome, "resolved");
    const note = await eventually("the resolution in the thread", () =>
      app.inThread(root).find((e) => /^✅ Resolved/.test(body(e))),
    );
    assert.match(body(note), /plan above still waits for approval/);
    await eventually("the plan card edited with the resolution", () =>
      app
        .botEvents()
        .some(
          (e) =>
            (e.content["m.relates_to"] as { rel_type?: string } | undefined)?.rel_type === "m.replace" &&
            /📋 Plan[\s\S]*resolved at/.test(
              String((e.content["m.new_content"] as { body?: string })?.body ?? ""),
            ),
        ),
    );
    assert.equal(app.topLevel().length, 1);
    const group = await app.store.db.selectFrom("alert_groups").selectAll().executeTakeFirstOrThrow();
    assert.equal(group.status, "resolved");
    assert.ok(group.resolved_at instanceof Date);
  });
});
