import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sql } from "kysely";
import { upsertEntities } from "../../store/entities.ts";
import { createExecution, transitionExecution } from "../../store/executions.ts";
import { RANKED_CANDIDATES } from "../../store/knowledge.ts";
import { mcpClientSuite } from "../../test-support/mcp-client-suite.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import { availableDialects } from "../../test-support/store.ts";

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

    test("a newer entry of the same kind about the same entities supersedes the older; search hides it", async () => {
      const write = (title: string, about: string[], kind = "investigation") =>
        callTool(mcp.client, "upsert_knowledge", {
          title,
          content: `${title}: zpool scrub findings`,
          kind,
          about,
          tags: [],
        });
      await write("ludo pool scrub march", ["pool:ludo-lvm"]);
      await write("ludo pool scrub runbook", ["pool:ludo-lvm"], "runbook");
      await write("ludo and strong scrub", ["pool:ludo-lvm", "host:strong"]);
      const newer = (await write("ludo pool scrub april", ["pool:ludo-lvm"])).json as {
        superseded?: string[];
      };
      assert.deepEqual(
        newer.superseded,
        ["ludo-pool-scrub-march"],
        "same kind and exactly the same entities only",
      );
      const hits = (await callTool(mcp.client, "search_knowledge", { query: "scrub" })).json as Entries;
      assert.deepEqual(hits.entries.map((e) => e.slug).sort(), [
        "ludo-and-strong-scrub",
        "ludo-pool-scrub-april",
        "ludo-pool-scrub-runbook",
      ]);
      const all = (
        await callTool(mcp.client, "search_knowledge", { query: "scrub", include_superseded: true })
      ).json as {
        entries: { slug: string; superseded_by?: string }[];
      };
      assert.equal(
        all.entries.find((e) => e.slug === "ludo-pool-scrub-march")?.superseded_by,
        "ludo-pool-scrub-april",
      );
      const linked = (await callTool(mcp.client, "get_entity_knowledge", { slug: "pool:ludo-lvm" }))
        .json as Entries;
      assert.ok(!linked.entries.some((e) => e.slug === "ludo-pool-scrub-march"));
      const [audit] = await mcp.store.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "knowledge.supersede")
        .execute();
      assert.equal(audit?.subject, "ludo-pool-scrub-april");
    });

    test("knowledge tools say when oikos last audited an entity, so a same-day re-audit is avoided", async () => {
      const before = (await callTool(mcp.client, "get_entity_knowledge", { slug: "host:strong" })).json as {
        last_touched: string;
      };
      assert.match(before.last_touched, /never audited by oikos/);
      const db = mcp.store.db;
      const run = await createExecution(db, {
        sessionId: null,
        target: "host:strong",
        command: "zpool status",
        commandKey: "host:strong:zpool status",
        risk: "read_only",
        purpose: "audit",
        requestedBy: "agent",
        status: "queued",
        timeoutMs: 60_000,
        deadlineAt: new Date(Date.now() + 3_600_000),
        planGeneration: null,
        stepSeq: null,
      });
      await transitionExecution(db, run.id, { from: "queued", to: "running", now: new Date() });
      await transitionExecution(db, run.id, {
        from: "running",
        to: "completed",
        now: new Date(),
        set: { exit_code: 0 },
      });
      const after = (await callTool(mcp.client, "get_entity_knowledge", { slug: "host:strong" })).json as {
        last_touched: string;
      };
      assert.match(after.last_touched, /last audited (just now|\d+ min ago) \(`zpool status`\)/);
      assert.match(
        after.last_touched,
        /audited today: read its facts and knowledge before running the same checks again/,
      );
      const hits = (await callTool(mcp.client, "search_knowledge", { query: "scrub" })).json as {
        entity_hints: Record<string, string>;
      };
      assert.match(hits.entity_hints["host:strong"] ?? "", /last audited/);
      assert.match(hits.entity_hints["pool:ludo-lvm"] ?? "", /never audited by oikos/);
      assert.doesNotMatch(hits.entity_hints["pool:ludo-lvm"] ?? "", /facts last written/);
      // a fact written about the pool (one query answers both: the latest run and the latest write)
      await upsertEntities(
        db,
        [{ slug: "pool:ludo-lvm", type: "pool", name: "ludo-lvm", attributes: { size: "2T" } }],
        { by: "test" },
      );
      const written = (await callTool(mcp.client, "search_knowledge", { query: "scrub" })).json as {
        entity_hints: Record<string, string>;
      };
      assert.match(
        written.entity_hints["pool:ludo-lvm"] ?? "",
        /never audited by oikos; facts last written just now/,
      );
      assert.match(written.entity_hints["host:strong"] ?? "", /last audited .*\(`zpool status`\)/);
      assert.doesNotMatch(written.entity_hints["host:strong"] ?? "", /facts last written/);
    });

    test("a search that matches more entries than are ranked says so and how to narrow it", async () => {
      await sql`
        INSERT INTO knowledge (slug, kind, title, content)
        SELECT 'widespread-' || i, 'document', 'Widespread note ' || i, 'the quokka habitat, entry ' || i
        FROM generate_series(1, ${RANKED_CANDIDATES + 5}) AS i`.execute(mcp.store.db);
      const broad = (await callTool(mcp.client, "search_knowledge", { query: "quokka" })).json as Entries & {
        note?: string;
        next_cursor?: string | null;
      };
      assert.equal(broad.entries.length, 20);
      assert.match(broad.note ?? "", new RegExp(`More than ${RANKED_CANDIDATES} entries match`));
      assert.match(broad.note ?? "", /narrow/);
      // the newest matches are the ones ranked
      assert.ok(broad.entries.some((entry) => entry.title === `Widespread note ${RANKED_CANDIDATES + 5}`));
      const narrow = (
        await callTool(mcp.client, "search_knowledge", { query: `quokka ${RANKED_CANDIDATES + 5}` })
      ).json as Entries & {
        note?: string;
      };
      assert.equal(narrow.note, undefined);
      assert.deepEqual(
        narrow.entries.map((entry) => entry.title),
        [`Widespread note ${RANKED_CANDIDATES + 5}`],
      );
    });
  });
}
