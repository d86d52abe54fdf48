import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sql } from "kysely";
import { availableDialects, createTestStore } from "../test-support/store.ts";
import { migrateToLatest } from "./migrate.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`store contract on ${dialect}`, { skip }, () => {
    test("migrations apply once and a second run applies nothing", async () => {
      const store = await createTestStore(dialect);
      try {
        const again = await migrateToLatest(store.db);
        assert.deepEqual(again.applied, []);
      } finally {
        await store.dispose();
      }
    });

    test("same SQL, same JS types: int8 as string, timestamptz as Date, jsonb parsed", async () => {
      const store = await createTestStore(dialect);
      try {
        await store.db
          .insertInto("entities")
          .values({
            slug: "host:hubris",
            type: "host",
            name: "hubris",
            attributes: JSON.stringify({ cores: 8 }),
            parent_slug: null,
          })
          .execute();
        const entity = await store.db
          .selectFrom("entities")
          .selectAll()
          .where("slug", "=", "host:hubris")
          .executeTakeFirstOrThrow();
        assert.deepEqual(entity.attributes, { cores: 8 });
        assert.ok(entity.created_at instanceof Date);
        assert.equal(entity.state, "active");
        const audit = await store.db
          .insertInto("audit_log")
          .values({
            actor: "test",
            action: "probe",
            subject: null,
            session_id: null,
            details: JSON.stringify({}),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        assert.equal(typeof audit.id, "string");
      } finally {
        await store.dispose();
      }
    });

    test("transactions roll back on error", async () => {
      const store = await createTestStore(dialect);
      try {
        await assert.rejects(
          store.db.transaction().execute(async (trx) => {
            await trx
              .insertInto("kv")
              .values({ key: "a", value: JSON.stringify(1) })
              .execute();
            throw new Error("boom");
          }),
          /boom/,
        );
        const rows = await store.db.selectFrom("kv").selectAll().execute();
        assert.equal(rows.length, 0);
      } finally {
        await store.dispose();
      }
    });

    test("knowledge full-text search ranks by title and content", async () => {
      const store = await createTestStore(dialect);
      try {
        await store.db
          .insertInto("knowledge")
          .values([
            {
              slug: "nfs-lock",
              kind: "runbook",
              title: "NFS export lock",
              content: "chown hangs while knfsd holds the lock",
              created_by: null,
              session_id: null,
              superseded_by: null,
            },
            {
              slug: "gitea",
              kind: "document",
              title: "Gitea",
              content: "runs in lxc",
              created_by: null,
              session_id: null,
              superseded_by: null,
            },
          ])
          .execute();
        const hits = await store.db
          .selectFrom("knowledge")
          .select("slug")
          .where(sql<boolean>`search @@ websearch_to_tsquery('english', ${"chown hang"})`)
          .execute();
        assert.deepEqual(
          hits.map((h) => h.slug),
          ["nfs-lock"],
        );
      } finally {
        await store.dispose();
      }
    });
  });
}
