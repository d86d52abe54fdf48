import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AGENT_PRINCIPAL } from "../../policy/principal.ts";
import { upsertEntities } from "../../store/entities.ts";
import { mcpClientSuite } from "../../test-support/mcp-client-suite.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import { availableDialects } from "../../test-support/store.ts";
import { connectInMemoryClient } from "../in-memory.ts";
import { createMcpServer } from "../server.ts";

const by = { by: "test" };

for (const { dialect, skip } of availableDialects()) {
  describe(`inventory tools over an in-memory MCP client on ${dialect}`, { skip }, () => {
    const mcp = mcpClientSuite(dialect, async (db) => {
      await upsertEntities(
        db,
        [
          { slug: "host:hubris", type: "host", name: "hubris", attributes: { "ssh.host": "10.0.0.2" } },
          { slug: "lxc:gitea", type: "lxc", name: "gitea", parentSlug: "host:hubris", transport: "pct-exec" },
          { slug: "lxc:nextcloud", type: "lxc", name: "nextcloud", parentSlug: "host:hubris" },
          { slug: "service:nextcloud", type: "service", name: "nextcloud" },
          { slug: "lxc:old", type: "lxc", name: "old", state: "destroyed" },
        ],
        by,
      );
      await db
        .insertInto("sessions")
        .values({ id: "s-1", platform: "shell", room: "r", thread: "t", created_by: "op" })
        .execute();
    });

    test("tools/list carries every inventory and knowledge tool", async () => {
      const { tools } = await mcp.client.listTools();
      const names = tools.map((tool) => tool.name).sort();
      for (const expected of [
        "create_relationship",
        "get_blast_radius",
        "get_entity",
        "get_entity_knowledge",
        "get_health_summary",
        "get_knowledge_content",
        "get_relations",
        "list_entities",
        "search_knowledge",
        "update_entity_attributes",
        "upsert_knowledge",
        "whoami",
      ]) {
        assert.ok(names.includes(expected), `${expected} missing from ${names.join(",")}`);
      }
    });

    test("list_entities hides destroyed entities unless asked, filters and paginates", async () => {
      const all = await callTool(mcp.client, "list_entities", {});
      assert.deepEqual(
        (all.json as { entities: { slug: string }[] }).entities.map((e) => e.slug),
        ["host:hubris", "lxc:gitea", "lxc:nextcloud", "service:nextcloud"],
      );
      const withDestroyed = await callTool(mcp.client, "list_entities", {
        include_destroyed: true,
        type: "lxc",
      });
      assert.equal((withDestroyed.json as { entities: unknown[] }).entities.length, 3);
      const first = (await callTool(mcp.client, "list_entities", { limit: 2 })).json as {
        entities: { slug: string }[];
        next_cursor?: string;
      };
      assert.deepEqual(
        first.entities.map((e) => e.slug),
        ["host:hubris", "lxc:gitea"],
      );
      assert.ok(first.next_cursor);
      const second = (await callTool(mcp.client, "list_entities", { limit: 2, cursor: first.next_cursor }))
        .json as {
        entities: { slug: string }[];
        next_cursor?: string;
      };
      assert.deepEqual(
        second.entities.map((e) => e.slug),
        ["lxc:nextcloud", "service:nextcloud"],
      );
      assert.equal(second.next_cursor, undefined);
      const query = (await callTool(mcp.client, "list_entities", { query: "cloud" })).json as {
        entities: { slug: string }[];
      };
      assert.deepEqual(
        query.entities.map((e) => e.slug),
        ["lxc:nextcloud", "service:nextcloud"],
      );
    });

    test("an unknown slug is a tool error that suggests close matches", async () => {
      const result = await callTool(mcp.client, "get_entity", { slug: "lxc:gitae" });
      assert.equal(result.isError, true);
      assert.match(result.text, /Unknown entity "lxc:gitae"\. Did you mean: lxc:gitea/);
      const byName = await callTool(mcp.client, "get_relations", { slug: "gitea" });
      assert.match(byName.text, /Did you mean: lxc:gitea/);
    });

    test("schema violations never reach the handler", async () => {
      const result = await callTool(mcp.client, "list_entities", { state: "exploded" });
      assert.equal(result.isError, true);
      assert.match(result.text, /Input validation error/);
    });

    test("update_entity_attributes merges, records provenance, audits and marks session writeback", async () => {
      const result = await callTool(
        mcp.client,
        "update_entity_attributes",
        { slug: "lxc:gitea", attributes: { version: "1.22", port: 3000 } },
        "s-1",
      );
      assert.equal(result.isError, false, result.text);
      assert.deepEqual((result.json as { changed: string[] }).changed, ["port", "version"]);
      const again = await callTool(mcp.client, "update_entity_attributes", {
        slug: "lxc:gitea",
        attributes: { version: "1.23", port: null },
      });
      assert.deepEqual((again.json as { attributes: object }).attributes, { version: "1.23" });
      const changes = await mcp.store.db
        .selectFrom("entity_attribute_changes")
        .select(["key", "changed_by", "session_id"])
        .where("entity_slug", "=", "lxc:gitea")
        .orderBy("id")
        .execute();
      assert.deepEqual(changes, [
        { key: "port", changed_by: "agent", session_id: "s-1" },
        { key: "version", changed_by: "agent", session_id: "s-1" },
        { key: "port", changed_by: "agent", session_id: null },
        { key: "version", changed_by: "agent", session_id: null },
      ]);
      const session = await mcp.store.db
        .selectFrom("sessions")
        .select("entity_writeback")
        .where("id", "=", "s-1")
        .executeTakeFirstOrThrow();
      assert.equal(session.entity_writeback, true);
      const audit = await mcp.store.db
        .selectFrom("audit_log")
        .select(["action", "subject", "session_id"])
        .where("action", "=", "entity.update_attributes")
        .orderBy("id")
        .execute();
      assert.deepEqual(audit[0], {
        action: "entity.update_attributes",
        subject: "lxc:gitea",
        session_id: "s-1",
      });
      const entity = (await callTool(mcp.client, "get_entity", { slug: "lxc:gitea" })).json as {
        attribute_age_days: Record<string, number>;
        parent: string;
      };
      assert.deepEqual(entity.attribute_age_days, { version: 0 });
      assert.equal(entity.parent, "host:hubris");
    });

    test("secret-looking attribute keys are refused", async () => {
      const result = await callTool(mcp.client, "update_entity_attributes", {
        slug: "lxc:gitea",
        attributes: { db_password: "hunter2" },
      });
      assert.equal(result.isError, true);
      assert.match(result.text, /look like secrets/);
    });

    test("routing attributes are the operator's: update_entity_attributes refuses them and changes nothing", async () => {
      const before = await callTool(mcp.client, "get_entity", { slug: "host:hubris" });
      for (const attributes of [
        { "ssh.host": "203.0.113.9" },
        { vmid: 999, version: "1.2" },
        { transport: "local" },
      ]) {
        const result = await callTool(mcp.client, "update_entity_attributes", {
          slug: "host:hubris",
          attributes,
        });
        assert.equal(result.isError, true, result.text);
        assert.match(result.text, /only the operator changes them/);
        assert.match(result.text, /oikos import/);
        assert.match(result.text, /change_routing/);
      }
      const after = await callTool(mcp.client, "get_entity", { slug: "host:hubris" });
      assert.deepEqual(
        (after.json as { attributes: unknown }).attributes,
        (before.json as { attributes: unknown }).attributes,
      );
      const fact = await callTool(mcp.client, "update_entity_attributes", {
        slug: "host:hubris",
        attributes: { "observed.ip": "203.0.113.9" },
      });
      assert.equal(fact.isError, false, fact.text);
    });

    test("create_relationship validates types as data and is idempotent", async () => {
      const created = await callTool(mcp.client, "create_relationship", {
        source: "service:nextcloud",
        target: "lxc:nextcloud",
        type: "runs-on",
      });
      assert.equal((created.json as { status: string }).status, "created");
      const again = await callTool(mcp.client, "create_relationship", {
        source: "service:nextcloud",
        target: "lxc:nextcloud",
        type: "runs-on",
      });
      assert.equal((again.json as { status: string }).status, "exists");
      const invalid = await callTool(mcp.client, "create_relationship", {
        source: "service:nextcloud",
        target: "lxc:nextcloud",
        type: "lives-in",
      });
      assert.equal(invalid.isError, true);
      assert.match(invalid.text, /Unknown relationship type "lives-in"/);
      for (const name of ["hosts", "runs-on", "depends-on", "mounts", "member-of"]) {
        assert.match(invalid.text, new RegExp(`\\b${name} \\(`));
      }
      const wrongEnds = await callTool(mcp.client, "create_relationship", {
        source: "lxc:nextcloud",
        target: "service:nextcloud",
        type: "hosts",
      });
      assert.equal(wrongEnds.isError, true);
      assert.match(wrongEnds.text, /cannot link a lxc to a service.*provides/s);
      const relations = (
        await callTool(mcp.client, "get_relations", { slug: "lxc:nextcloud", direction: "in" })
      ).json as { relations: unknown[] };
      assert.deepEqual(relations.relations, [
        { source: "service:nextcloud", type: "runs-on", target: "lxc:nextcloud" },
      ]);
    });

    test("whoami reports the out-of-band session, or its absence", async () => {
      const withSession = (await callTool(mcp.client, "whoami", {}, "s-1")).json as {
        session: { id: string; status: string };
      };
      assert.equal(withSession.session.id, "s-1");
      assert.equal(withSession.session.status, "planning");
      const without = (await callTool(mcp.client, "whoami", {})).json as { session: null; note: string };
      assert.equal(without.session, null);
    });

    test("get_health_summary counts entities and flags stale facts", async () => {
      const summary = (await callTool(mcp.client, "get_health_summary", {})).json as {
        entities: { type: string; state: string; count: number }[];
        stale_facts: { count: number };
        open_approvals: number;
      };
      assert.deepEqual(
        summary.entities.find((row) => row.type === "lxc" && row.state === "active"),
        { type: "lxc", state: "active", count: 2 },
      );
      assert.equal(summary.stale_facts.count, 0);
      assert.equal(summary.open_approvals, 0);
      const later = createMcpServer({
        db: mcp.store.db,
        principal: AGENT_PRINCIPAL,
        clock: () => new Date(Date.now() + 40 * 86_400_000),
      });
      const laterClient = await connectInMemoryClient(later);
      try {
        const stale = (await callTool(laterClient, "get_health_summary", {})).json as {
          stale_facts: { count: number; oldest: { slug: string; age_days: number }[] };
        };
        assert.equal(stale.stale_facts.count, 4);
        assert.ok(stale.stale_facts.oldest.every((s) => s.age_days >= 39));
      } finally {
        await laterClient.close();
      }
    });
  });
}
