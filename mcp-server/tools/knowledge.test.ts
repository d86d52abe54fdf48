import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { upsertEntities } from "../../store/entities.ts";
import { mcpClientSuite } from "../../test-support/mcp-client-suite.ts";
import { availableDialects } from "../../test-support/store.ts";
import { callTool } from "../test-support.ts";

type Entries = { entries: { slug: string; kind: string; title: string; about: string[] }[] };

for (const { dialect, skip } of availableDialects()) {
  describe(`knowledge tools on ${dialect}`, { skip }, () => {
    const mcp = mcpClientSuite(dialect, async (db) => {
      await upsertEntities(
        db,
        [
          { slug: "vm:zimaos", type: "vm", name: "zimaos" },
          { slug: "host:strong", type: "host", name: "strong" },
          { slug: "pool:ludo-lvm", type: "pool", name: "ludo-lvm" },
        ],
        { by: "test" },
      );
    });

    test("upsert_knowledge with the same title updates in place and links every about entity", async () => {
      const first = await callTool(
        mcp.client,
        "upsert_knowledge",
        {
          title: "NFS root chown hangs on strong",
          content: "knfsd holds a lock on exported directories; chown hangs.",
          kind: "investigation",
          about: ["vm:zimaos", "host:strong"],
          tags: ["nfs"],
        },
        "s-9",
      );
      assert.equal(first.isError, false, first.text);
      assert.deepEqual(first.json, {
        status: "created",
        slug: "nfs-root-chown-hangs-on-strong",
        about: ["host:strong", "vm:zimaos"],
      });
      const second = await callTool(mcp.client, "upsert_knowledge", {
        title: "NFS root chown hangs on strong",
        content: "Unexport first, then chown :10000 and chmod 2775, then re-export.",
        kind: "investigation",
        about: ["pool:ludo-lvm"],
        tags: ["nfs", "knfsd"],
      });
      assert.equal((second.json as { status: string }).status, "updated");
      const rows = await mcp.store.db.selectFrom("knowledge").select(["slug", "content"]).execute();
      assert.equal(rows.length, 1);
      assert.match(rows[0]!.content, /^Unexport first/);
      for (const slug of ["vm:zimaos", "host:strong", "pool:ludo-lvm"]) {
        const found = (await callTool(mcp.client, "get_entity_knowledge", { slug })).json as Entries;
        assert.deepEqual(
          found.entries.map((e) => e.slug),
          ["nfs-root-chown-hangs-on-strong"],
          `not found from ${slug}`,
        );
      }
      const audit = await mcp.store.db
        .selectFrom("audit_log")
        .select(["action", "session_id"])
        .where("subject", "=", "nfs-root-chown-hangs-on-strong")
        .orderBy("id")
        .execute();
      assert.deepEqual(audit, [
        { action: "knowledge.create", session_id: "s-9" },
        { action: "knowledge.update", session_id: null },
      ]);
    });

    test("get_entity_knowledge lists runbooks first", async () => {
      await callTool(mcp.client, "upsert_knowledge", {
        title: "Fix NFS permissions on strong",
        content: "1. exportfs -u\n2. chown\n3. exportfs -r",
        kind: "runbook",
        about: ["host:strong"],
        tags: [],
      });
      await callTool(mcp.client, "upsert_knowledge", {
        title: "strong hardware notes",
        content: "Dual NIC.",
        kind: "document",
        about: ["host:strong"],
        tags: [],
      });
      const found = (await callTool(mcp.client, "get_entity_knowledge", { slug: "host:strong" }))
        .json as Entries;
      assert.deepEqual(
        found.entries.map((e) => e.kind),
        ["runbook", "investigation", "document"],
      );
    });

    test("unknown about slugs are refused with suggestions and nothing is written", async () => {
      const result = await callTool(mcp.client, "upsert_knowledge", {
        title: "Zima dashboard down",
        content: "x",
        kind: "investigation",
        about: ["vm:zimaso", "host:strong"],
        tags: [],
      });
      assert.equal(result.isError, true);
      assert.match(result.text, /unknown entities in about: vm:zimaso \(did you mean vm:zimaos\?\)/);
      const count = await mcp.store.db
        .selectFrom("knowledge")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("slug", "=", "zima-dashboard-down")
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    test("search_knowledge finds by stemmed words, filters by kind and about; content by slug", async () => {
      const hits = (await callTool(mcp.client, "search_knowledge", { query: "hanging chowns" }))
        .json as Entries;
      assert.equal(hits.entries[0]?.slug, "nfs-root-chown-hangs-on-strong");
      const runbooks = (
        await callTool(mcp.client, "search_knowledge", { query: "exportfs", kind: "runbook" })
      ).json as Entries;
      assert.deepEqual(
        runbooks.entries.map((e) => e.slug),
        ["fix-nfs-permissions-on-strong"],
      );
      const aboutZima = (await callTool(mcp.client, "search_knowledge", { query: "nfs", about: "vm:zimaos" }))
        .json as Entries;
      assert.deepEqual(
        aboutZima.entries.map((e) => e.slug),
        ["nfs-root-chown-hangs-on-strong"],
      );
      const content = (
        await callTool(mcp.client, "get_knowledge_content", { slug: "fix-nfs-permissions-on-strong" })
      ).json as { content: string };
      assert.match(content.content, /exportfs -r/);
      const missing = await callTool(mcp.client, "get_knowledge_content", {
        slug: "fix-nfs-permission-on-strong",
      });
      assert.equal(missing.isError, true);
      assert.match(missing.text, /Did you mean: fix-nfs-permissions-on-strong/);
    });
  });
}
