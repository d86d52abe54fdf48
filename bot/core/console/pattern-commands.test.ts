import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getKnowledge, searchKnowledge } from "../../../store/knowledge.ts";
import { upsertPattern } from "../../../store/learning.ts";
import {
  type ConsolePlatforms,
  SLACK_CHANNEL,
  startConsolePlatforms,
} from "../../../test-support/bot/console-platforms.ts";
import { eventually } from "../../../test-support/bot/eventually.ts";

const BOT = "@oikos:double.test";
const RUNBOOK = "Runbook: when knfsd holds a lock on an exported directory";

// `!patterns` shows what the learning job found, one card each; ✅ from an operator adopts the
// suggested runbook into the knowledge graph (where the agent's search finds it), a stranger's
// ✅ does nothing. No model is configured.
describe("patterns and adopting a suggested runbook", () => {
  let c: ConsolePlatforms;

  before(async () => {
    c = await startConsolePlatforms();
    await upsertPattern(c.h.store.db, {
      kind: "root_cause",
      key: "exported knfsd lock",
      description: "Recurring root cause (3 tasks): knfsd holds a lock on an exported directory",
      occurrences: 3,
      suggestedRunbook: `${RUNBOOK}\n\nSeen in:\n- unexport, chown, re-export\n\nWrite the steps that worked.`,
      lastSeenAt: new Date(),
      entitySlugs: [],
      symptom: [],
    });
  });
  after(async () => {
    await c.close();
    assert.deepEqual(c.matrix.double.violations, []);
  });

  test("Matrix: one card per pattern with ✅; a stranger's ✅ is ignored, an operator's adopts the runbook", async () => {
    const { double, room } = c.matrix;
    double.message(c.user("matrix", "operator"), room, "!oikos patterns");
    const card = await eventually("pattern card", () =>
      double.sentBy(BOT).find((e) => String(e.content.body).includes("Recurring root cause")),
    );
    assert.match(String(card.content.body), /suggested runbook: Runbook: when knfsd holds a lock/);
    assert.match(String(card.content.body), /React ✅ to adopt/);
    await eventually("✅ offered", () =>
      double
        .sentBy(BOT)
        .find((e) => e.type === "m.reaction" && JSON.stringify(e.content).includes(card.event_id)),
    );
    double.react(c.user("matrix", "stranger"), room, card.event_id, "✅");
    await eventually(
      "stranger ignored",
      async () =>
        (await c.h.store.db
          .selectFrom("audit_log")
          .select("id")
          .where("actor", "=", c.user("matrix", "stranger"))
          .executeTakeFirst()) ?? false,
    );
    assert.equal(
      await getKnowledge(c.h.store.db, "runbook-when-knfsd-holds-a-lock-on-an-exported-directory"),
      undefined,
    );
    double.react(c.user("matrix", "operator"), room, card.event_id, "✅");
    const edit = await eventually("card edited", () =>
      double
        .sentBy(BOT)
        .find((e) =>
          String((e.content["m.new_content"] as { body?: string } | undefined)?.body ?? "").includes(
            "adopted as runbook",
          ),
        ),
    );
    assert.match(
      String((edit.content["m.new_content"] as { body: string }).body),
      /`runbook-when-knfsd-holds-a-lock-on-an-exported-directory`/,
    );
    const entry = await getKnowledge(
      c.h.store.db,
      "runbook-when-knfsd-holds-a-lock-on-an-exported-directory",
    );
    assert.equal(entry?.kind, "runbook");
    assert.equal(entry?.createdBy, c.user("matrix", "operator"));
    const found = await searchKnowledge(
      c.h.store.db,
      { query: "knfsd lock exported", kind: "runbook" },
      { offset: 0, limit: 5 },
    );
    assert.equal(found.entries[0]?.slug, entry?.slug, "the agent's search finds it");
  });

  test("Slack: `/oikos patterns` posts the card with an Adopt button; clicking it again changes nothing", async () => {
    const { double } = c.slack;
    await double.slashCommand(c.user("slack", "operator"), SLACK_CHANNEL, "/oikos", "patterns");
    const card = await eventually("pattern card", () =>
      double.byBot().find((m) => m.text.includes("Recurring root cause")),
    );
    assert.match(
      JSON.stringify(card.blocks),
      /adopted as runbook/,
      "adopted on Matrix already: the card says so",
    );
    assert.doesNotMatch(JSON.stringify(card.blocks), /oikos:approve/, "no button once adopted");
    const rows = await c.h.store.db
      .selectFrom("knowledge")
      .select("slug")
      .where("kind", "=", "runbook")
      .execute();
    assert.equal(rows.length, 1);
  });

  test("terminal: an adopted pattern shows as adopted, with nothing to react to", async () => {
    const out = await c.ask("shell", "operator", "patterns");
    assert.match(out, /Patterns the learning job found \(1\)/);
    assert.match(out, /✅ adopted as runbook `runbook-when-knfsd-holds-a-lock-on-an-exported-directory`/);
    assert.doesNotMatch(out, /React ✅ to adopt/);
  });

  test("a stranger cannot list patterns", async () => {
    assert.match(
      await c.ask("shell", "stranger", "patterns"),
      /I only take instructions from this room's operators/,
    );
  });
});
