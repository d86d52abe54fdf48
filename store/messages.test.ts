import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { appendMessage, hasInputAfter, recentMessages, refusalKeysSinceOperator } from "./messages.ts";
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

    test("the window and what it leaves out, the refusals since the operator, input the model has not seen", async () => {
      const session = await createSession(store.db, {
        platform: "matrix",
        room: "!r",
        thread: "$window",
        createdBy: "@a",
      });
      const at = (sessionId: string) => ({ sessionId });
      assert.deepEqual(await recentMessages(store.db, session.id, 3), { messages: [], omitted: 0 });
      assert.deepEqual(await refusalKeysSinceOperator(store.db, session.id), []);
      assert.equal(await hasInputAfter(store.db, session.id, 0n), false);
      const refusedBefore = await appendMessage(store.db, {
        ...at(session.id),
        role: "tool",
        content: "refused",
        refusalKey: "k-before",
      });
      const operator = await appendMessage(store.db, {
        ...at(session.id),
        role: "user",
        content: "check it",
      });
      const own = await appendMessage(store.db, { ...at(session.id), role: "assistant", content: "on it" });
      await appendMessage(store.db, {
        ...at(session.id),
        role: "tool",
        content: "refused",
        refusalKey: "k1",
      });
      await appendMessage(store.db, { ...at(session.id), role: "tool", content: "ok" });
      await appendMessage(store.db, {
        ...at(session.id),
        role: "tool",
        content: "refused",
        refusalKey: "k2",
      });
      // another session's messages count for nothing here
      const other = await createSession(store.db, {
        platform: "matrix",
        room: "!r",
        thread: "$o",
        createdBy: "@a",
      });
      await appendMessage(store.db, { ...at(other.id), role: "user", content: "elsewhere" });

      const window = await recentMessages(store.db, session.id, 3);
      assert.deepEqual(
        window.messages.map((m) => m.content),
        ["refused", "ok", "refused"],
      );
      assert.equal(window.omitted, 3);
      assert.equal((await recentMessages(store.db, session.id, 50)).omitted, 0);

      assert.deepEqual(await refusalKeysSinceOperator(store.db, session.id), ["k1", "k2"]);
      assert.ok(BigInt(refusedBefore.id) < BigInt(operator.id));

      assert.equal(
        await hasInputAfter(store.db, session.id, BigInt(refusedBefore.id)),
        true,
        "the operator's message",
      );
      assert.equal(
        await hasInputAfter(store.db, session.id, BigInt(operator.id)),
        false,
        "only its own output since",
      );
      await appendMessage(store.db, {
        ...at(session.id),
        role: "system",
        content: "model fault",
        name: "model-fault",
      });
      assert.equal(
        await hasInputAfter(store.db, session.id, BigInt(own.id)),
        false,
        "a fault note is not input",
      );
      await appendMessage(store.db, {
        ...at(session.id),
        role: "system",
        content: "Execution finished",
        name: "execution:e1",
      });
      assert.equal(await hasInputAfter(store.db, session.id, BigInt(own.id)), true, "a continuation note is");
    });
  });
}
