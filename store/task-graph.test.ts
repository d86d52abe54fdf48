import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { availableDialects, createTestStore } from "../test-support/store.ts";
import { findEntity, upsertEntities } from "./entities.ts";
import { listEntityTypes } from "./entity-types.ts";
import { upsertKnowledge } from "./knowledge.ts";
import { createSession } from "./sessions.ts";
import { entitiesTouchedBy, taskSlug, tasksThatTouched, touchEntities } from "./task-graph.ts";

const by = { by: "test" };

for (const { dialect, skip } of availableDialects()) {
  describe(`the task graph on ${dialect}`, { skip }, () => {
    test("one involves edge per entity under repeated and concurrent touches of several tasks", async () => {
      const store = await createTestStore(dialect);
      try {
        const db = store.db;
        await upsertEntities(
          db,
          [
            { slug: "host:pve", type: "host", name: "pve" },
            { slug: "lxc:cloud", type: "lxc", name: "cloud", parentSlug: "host:pve" },
          ],
          by,
        );
        const sessions = await Promise.all(
          ["a", "b", "c"].map(
            async (thread) =>
              (await createSession(db, { platform: "matrix", room: "!r", thread, createdBy: "@op" })).id,
          ),
        );
        // Every task touches both entities twelve times at once, by every gate, plus an unknown slug.
        const touches = sessions.flatMap((sessionId) =>
          Array.from({ length: 12 }, (_, i) =>
            touchEntities(db, {
              sessionId,
              slugs: ["lxc:cloud", "host:pve", "lxc:nowhere"],
              via: (["run", "knowledge", "writeback", "discovery"] as const)[i % 4]!,
            }),
          ),
        );
        const results = await Promise.all(touches);
        for (const sessionId of sessions) {
          assert.deepEqual(await entitiesTouchedBy(db, sessionId), ["host:pve", "lxc:cloud"]);
          const firsts = results
            .flatMap((r) => r.events)
            .filter((e) => e.type === "entity.touched" && e.sessionId === sessionId)
            .map((e) => (e.type === "entity.touched" ? e.entitySlug : ""))
            .sort();
          assert.deepEqual(firsts, ["host:pve", "lxc:cloud"], "one entity.touched per task and entity");
        }
        const edges = await db
          .selectFrom("relationships")
          .select(["source_slug", "target_slug", "attributes"])
          .where("type", "=", "involves")
          .execute();
        assert.equal(edges.length, 6, "three tasks × two entities");
        for (const edge of edges) assert.equal(edge.attributes.touches, 12, JSON.stringify(edge));
        const task = await findEntity(db, taskSlug(sessions[0]!));
        assert.equal(task?.type, "task");
        assert.equal(task?.transport, "none", "a task entity is never a command target");
        const history = await tasksThatTouched(db, "lxc:cloud");
        assert.deepEqual(history.map((t) => t.sessionId).sort(), [...sessions].sort());
        assert.equal(history[0]?.touches, 12);
      } finally {
        await store.dispose();
      }
    });

    test("knowledge a task writes about an entity involves it and is listed with the task", async () => {
      const store = await createTestStore(dialect);
      try {
        const db = store.db;
        await upsertEntities(db, [{ slug: "lxc:gitea", type: "lxc", name: "gitea" }], by);
        const sessionId = (
          await createSession(db, { platform: "matrix", room: "!r", thread: "t", createdBy: "@op" })
        ).id;
        const written = await upsertKnowledge(
          db,
          {
            title: "Gitea disk full",
            content: "pruned",
            kind: "investigation",
            about: ["lxc:gitea"],
            tags: [],
          },
          { by: "agent", sessionId },
        );
        assert.equal(written.status, "created");
        assert.deepEqual(written.status === "created" ? written.events.map((e) => e.type) : [], [
          "entity.touched",
        ]);
        const [task] = await tasksThatTouched(db, "lxc:gitea");
        assert.equal(task?.sessionId, sessionId);
        assert.deepEqual(
          task?.knowledge.map((k) => k.slug),
          ["gitea-disk-full"],
        );
        // Without a session (the operator's import, a pattern adopted) nothing is touched.
        await upsertKnowledge(
          db,
          { title: "Gitea notes", content: "x", kind: "document", about: ["lxc:gitea"], tags: [] },
          by,
        );
        assert.equal((await tasksThatTouched(db, "lxc:gitea")).length, 1);
      } finally {
        await store.dispose();
      }
    });

    test("entity types are data: an unknown type is refused with the known ones, the rest still land", async () => {
      const store = await createTestStore(dialect);
      try {
        const db = store.db;
        const types = (await listEntityTypes(db)).map((t) => t.name);
        for (const expected of ["host", "lxc", "vm", "service", "container", "volume", "port", "task"])
          assert.ok(types.includes(expected), expected);
        const result = await upsertEntities(
          db,
          [
            { slug: "servce:nextcloud", type: "servce", name: "nextcloud" },
            { slug: "service:nextcloud", type: "service", name: "nextcloud" },
          ],
          by,
        );
        assert.deepEqual(result.created, ["service:nextcloud"]);
        assert.equal(result.failed.length, 1);
        assert.match(result.failed[0]!.reason, /Unknown entity type "servce"\. Did you mean service\?/);
        assert.match(result.failed[0]!.reason, /Known types: .*container/);
        assert.equal(await findEntity(db, "servce:nextcloud"), undefined);
        // The database holds it too: a write that bypasses the check fails on the foreign key.
        await assert.rejects(
          db
            .insertInto("entities")
            .values({ slug: "x:y", type: "x", name: "y", attributes: "{}", parent_slug: null })
            .execute(),
        );
      } finally {
        await store.dispose();
      }
    });
  });
}
