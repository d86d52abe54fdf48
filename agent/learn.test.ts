import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type FeedbackInput, recordFeedback } from "../store/feedback.ts";
import { listPatterns } from "../store/learning.ts";
import { createSession } from "../store/sessions.ts";
import { createTestStore, type TestStore } from "../test-support/store.ts";
import { learnFromFeedback, patternKey } from "./learn.ts";

describe("learning job: feedback → patterns", () => {
  let store: TestStore;
  before(async () => {
    store = await createTestStore();
  });
  after(async () => {
    await store.dispose();
  });

  test("a root cause in several tasks becomes one pattern with a suggested runbook; one-offs do not", async () => {
    const finishedTasks: Omit<FeedbackInput, "sessionId">[] = [
      {
        outcome: "success",
        planAdherence: 1,
        rootCause: "Docker image was 3 months old",
        notes: "Pulled the latest image. Bridge reconnected.",
      },
      {
        outcome: "success",
        planAdherence: 0.5,
        rootCause: "the docker image was old",
        notes: "Pulled the latest image. Restarted.",
      },
      {
        outcome: "partial",
        planAdherence: null,
        rootCause: "knfsd lock on exported dir",
        notes: "Unexported first.",
      },
    ];
    for (const [i, feedback] of finishedTasks.entries()) {
      const session = await createSession(store.db, {
        platform: "t",
        room: "r",
        thread: `t${i}`,
        createdBy: "op",
      });
      await recordFeedback(store.db, { sessionId: session.id, ...feedback });
    }
    const report = await learnFromFeedback(store.db);
    assert.equal(report.feedback, 3);
    const patterns = await listPatterns(store.db);
    assert.deepEqual(
      patterns.map((p) => [p.kind, p.key, p.occurrences]).sort(),
      [
        ["fix", patternKey("Pulled the latest image."), 2],
        ["root_cause", patternKey("docker image old"), 2],
      ].sort(),
    );
    assert.match(patterns[0]!.suggestedRunbook!, /^Runbook: /);
    // Idempotent: a second run refreshes, never doubles.
    await learnFromFeedback(store.db);
    assert.equal((await listPatterns(store.db)).length, 2);
    assert.equal((await listPatterns(store.db))[0]!.occurrences, 2);
  });
});
