import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { appendMessage } from "./messages.ts";
import { createSession } from "./sessions.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`messages on ${dialect}`, { skip }, () => {
    let store: TestStore;
    before(async () => {
      store = await createTestStore(dialect);
    });
    after(() => store?.dispose());

    test("a chat event stored twice (redelivered after a crash) is one message", async () => {
      const session = await createSession(store.db, {
        platform: "matrix",
        room: "!r",
        thread: "$t",
        createdBy: "@a",
      });
      const input = {
        sessionId: session.id,
        role: "user" as const,
        content: "restart gitea",
        platformEventId: "$e1",
      };
      const first = await appendMessage(store.db, input);
      const second = await appendMessage(store.db, input);
      assert.equal(second.id, first.id);
      const other = await appendMessage(store.db, { ...input, platformEventId: "$e2" });
      assert.notEqual(other.id, first.id);
      await appendMessage(store.db, { sessionId: session.id, role: "assistant", content: "on it" });
      await appendMessage(store.db, { sessionId: session.id, role: "assistant", content: "on it" });
      const rows = await store.db
        .selectFrom("messages")
        .select("id")
        .where("session_id", "=", session.id)
        .execute();
      assert.equal(rows.length, 4, "messages without an event id are never merged");
    });
  });
}
