import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { availableDialects, createTestStore, type TestStore } from "../test-support/store.ts";
import { moveSession, reopenSession, SESSION_TRANSITIONS } from "./session-lifecycle.ts";
import { createSession, findSessionByThread, getSession, touchSession } from "./sessions.ts";
import { SESSION_STATUSES } from "./statuses.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`sessions on ${dialect}`, { skip }, () => {
    let store: TestStore;
    before(async () => {
      store = await createTestStore(dialect);
    });
    after(() => store?.dispose());

    test("one session per thread, even when created twice", async () => {
      const address = { platform: "matrix", room: "!ops:hs", thread: "$root1" };
      const first = await createSession(store.db, { ...address, createdBy: "@alice:hs" });
      const second = await createSession(store.db, { ...address, createdBy: "@bob:hs" });
      assert.equal(second.id, first.id);
      assert.equal(second.created_by, "@alice:hs");
      assert.equal((await findSessionByThread(store.db, address))?.id, first.id);
      assert.equal(first.status, "planning");
    });

    test("status moves only from an allowed state", async () => {
      const s = await createSession(store.db, { platform: "shell", room: "t", thread: "1", createdBy: "op" });
      assert.equal(await moveSession(store.db, s.id, "executing", { from: ["planning"] }), true);
      assert.equal(await moveSession(store.db, s.id, "executing", { from: ["planning"] }), false);
      assert.equal(await moveSession(store.db, s.id, "done", { set: { outcome: "success" } }), true);
      const done = await getSession(store.db, s.id);
      assert.equal(done?.status, "done");
      assert.equal(done?.outcome, "success");
      assert.ok(done?.closed_at instanceof Date);
      // A closed task moves only by reopening.
      assert.equal(await moveSession(store.db, s.id, "executing"), false);
      assert.equal((await getSession(store.db, s.id))?.status, "done");
      assert.equal(await reopenSession(store.db, s.id), true);
      const reopened = await getSession(store.db, s.id);
      assert.equal(reopened?.status, "planning");
      assert.equal(reopened?.closed_at, null);
      assert.equal(reopened?.requires_replan, true);
    });

    test("a move the transition table does not allow is refused before any write", async () => {
      const s = await createSession(store.db, { platform: "shell", room: "t", thread: "3", createdBy: "op" });
      await assert.rejects(moveSession(store.db, s.id, "executing", { from: ["done"] }), /done → executing/);
      assert.equal((await getSession(store.db, s.id))?.status, "planning");
      for (const from of SESSION_STATUSES) assert.ok(SESSION_TRANSITIONS[from].length > 0, from);
    });

    test("touch records activity and clears a nudge", async () => {
      const s = await createSession(store.db, { platform: "shell", room: "t", thread: "2", createdBy: "op" });
      await store.db.updateTable("sessions").set({ nudged_at: new Date() }).where("id", "=", s.id).execute();
      const later = new Date(Date.now() + 60_000);
      await touchSession(store.db, s.id, later);
      const touched = await getSession(store.db, s.id);
      assert.equal(touched?.nudged_at, null);
      assert.equal(touched?.last_activity_at.getTime(), later.getTime());
    });
  });
}
