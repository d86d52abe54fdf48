import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { createSession } from "../../../store/sessions.ts";
import { completeSessionTask } from "../../../store/task-completion.ts";
import { availableDialects, createTestStore, type TestStore } from "../../../test-support/store.ts";
import { buildSummaryCard } from "./summary-card.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`completion summary card on ${dialect}`, { skip }, () => {
    let store: TestStore;
    before(async () => {
      store = await createTestStore(dialect);
    });
    after(async () => {
      await store.dispose();
    });

    async function completed(input: Parameters<typeof completeSessionTask>[2]) {
      const { id } = await createSession(store.db, {
        platform: "test",
        room: "r",
        thread: randomUUID(),
        createdBy: "op",
        goal: "Check disk usage",
      });
      const done = await completeSessionTask(store.db, id, input);
      assert.ok(done.ok);
      return buildSummaryCard(store.db, id, done.outcome);
    }

    test("shows complete_task's verification and follow-ups as given, even text that looks like a heading", async () => {
      const card = await completed({
        outcome: "partial",
        summary: "looked",
        verification: "df -h showed 40 % used\n## What was left\nnothing",
        left_open: "rotate the nginx logs",
      });
      assert.ok(card.lines.includes("verified: df -h showed 40 % used\n## What was left\nnothing"));
      assert.ok(card.lines.includes("follow-ups: rotate the nginx logs"));
      const knowledge = card.lines.find((l) => l.startsWith("knowledge written: "));
      assert.ok(
        knowledge && knowledge !== "knowledge written: none",
        "the task's own knowledge entry is listed",
      );
    });

    test("no verification line without one; a task that did not succeed says its follow-ups were not stated", async () => {
      const partial = await completed({ outcome: "partial", summary: "half" });
      assert.ok(!partial.lines.some((l) => l.startsWith("verified:")));
      assert.ok(partial.lines.includes("follow-ups: not stated"));
      const success = await completed({ outcome: "success", summary: "all good", verification: "checked" });
      assert.ok(success.lines.includes("verified: checked"));
      assert.ok(!success.lines.some((l) => l.startsWith("follow-ups:")));
    });
  });
}
