import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { adoptPattern, patternCard } from "../bot/core/console/pattern-commands.ts";
import { upsertEntities } from "../store/entities.ts";
import { recordFeedback } from "../store/feedback.ts";
import { getKnowledge } from "../store/knowledge.ts";
import { listPatterns } from "../store/learning.ts";
import { runbookUseBySlug } from "../store/runbooks.ts";
import { createSession, getSession } from "../store/sessions.ts";
import { touchEntities } from "../store/task-graph.ts";
import { createTestStore, type TestStore } from "../test-support/store.ts";
import { learnFromFeedback } from "./learn.ts";
import { systemPrompt } from "./prompt.ts";

// Repeated successes on one entity become a pattern linked to that entity and the symptom the tasks
// shared; once the operator adopts its runbook, the next task on that entity with that symptom has
// it in its context (and only that task), and its use and outcome are counted.
describe("runbooks: from repeated successes to the next task's context", () => {
  let store: TestStore;
  const task = async (thread: string, goal: string, touched: string[]) => {
    const id = (await createSession(store.db, { platform: "t", room: "r", thread, createdBy: "op" })).id;
    await store.db.updateTable("sessions").set({ goal }).where("id", "=", id).execute();
    // What the run gate writes when a command for the entity passes (store/task-graph.ts).
    await touchEntities(store.db, { sessionId: id, slugs: touched, via: "run" });
    return id;
  };
  const prompt = async (sessionId: string) =>
    systemPrompt(store.db, "SOUL", (await getSession(store.db, sessionId))!, new Date());

  before(async () => {
    store = await createTestStore();
    await upsertEntities(
      store.db,
      [
        { slug: "lxc:nextcloud", type: "lxc", name: "nextcloud" },
        { slug: "lxc:gitea", type: "lxc", name: "gitea" },
      ],
      { by: "test" },
    );
  });
  after(async () => store.dispose());

  test("learned, adopted, offered when the same entity shows the same symptom, counted", async () => {
    const fixes = [
      [
        "Nextcloud on lxc:nextcloud answers 502 Bad Gateway",
        "Restarted php-fpm in the container. Site answers 200.",
      ],
      ["502 from nextcloud again (lxc:nextcloud)", "Restarted php-fpm in the container. Login works."],
    ];
    for (const [i, [goal, notes]] of fixes.entries()) {
      const id = await task(`fix${i}`, goal!, ["lxc:nextcloud", i === 0 ? "lxc:gitea" : "host:none"]);
      await recordFeedback(store.db, {
        sessionId: id,
        outcome: "success",
        planAdherence: 1,
        rootCause: null,
        notes: notes!,
      });
    }
    await learnFromFeedback(store.db);
    const [pattern] = await listPatterns(store.db);
    assert.ok(pattern, "a repeated fix is a pattern");
    assert.deepEqual(pattern.entitySlugs, ["lxc:nextcloud"], "only what both tasks touched");
    assert.deepEqual(pattern.symptom, ["nextcloud", "502"]);
    assert.match(pattern.suggestedRunbook!, /For: lxc:nextcloud, when a task says: nextcloud 502/);

    const adopted = await adoptPattern(store.db, pattern.id, "@alice");
    assert.equal(adopted.status, "adopted");
    const slug = adopted.status === "adopted" ? adopted.slug : "";
    assert.deepEqual((await getKnowledge(store.db, slug))?.about, ["lxc:nextcloud"]);

    const again = await task("again", "lxc:nextcloud returns 502 to every user", ["lxc:nextcloud"]);
    const upgrade = await task("upgrade", "Upgrade nextcloud to 30", ["lxc:nextcloud"]);
    const elsewhere = await task("gitea", "gitea answers 502 bad gateway", ["lxc:gitea"]);
    const offered = await prompt(again);
    assert.match(
      offered,
      new RegExp(`Adopted runbook for lxc:nextcloud when "nextcloud 502": .*\\(\`${slug}\`\\)`),
    );
    assert.doesNotMatch(await prompt(upgrade), /Adopted runbook/, "same entity, another symptom");
    assert.doesNotMatch(await prompt(elsewhere), /Adopted runbook/, "same symptom, another entity");
    // A task that only names the entity (before any command touched it) is offered it too.
    const named = (
      await createSession(store.db, { platform: "t", room: "r", thread: "named", createdBy: "op" })
    ).id;
    await store.db
      .updateTable("sessions")
      .set({ goal: "nextcloud on lxc:nextcloud: 502" })
      .where("id", "=", named)
      .execute();
    assert.match(await prompt(named), /Adopted runbook for lxc:nextcloud/);

    await prompt(again);
    await store.db
      .updateTable("sessions")
      .set({ status: "done", outcome: "success" })
      .where("id", "=", again)
      .execute();
    assert.deepEqual(await runbookUseBySlug(store.db, slug), {
      offered: 2,
      outcomes: { success: 1, partial: 0, failure: 0 },
    });
    assert.match(await prompt(named), /Offered to 1 earlier task\(s\): 1 success\./);
    const card = await patternCard(store.db, pattern);
    assert.ok(
      card.lines.some((l) => /offered to 2 task\(s\): 1 success, 0 partial, 0 failure/.test(l)),
      card.lines.join("\n"),
    );
    assert.ok(card.lines.some((l) => /for `lxc:nextcloud` when a task says “nextcloud 502”/.test(l)));
  });
});
