import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { upsertEntities } from "../store/entities.ts";
import { mcpClientSuite } from "../test-support/mcp-client-suite.ts";
import { callTool } from "../test-support/mcp-server/call-tool.ts";
import { availableDialects } from "../test-support/store.ts";

// Inventories carry secrets (ansible_ssh_pass, become passwords, tokens in host vars); every tool
// result passes define-tool's redaction before it reaches a model or an outside client.
const SECRETS = ["Inv3ntoryPa55", "glpat-Xy9ZkQ2mN4pR6sT8vW0a", "p@ss/w0rd"];

for (const { dialect, skip } of availableDialects()) {
  describe(`MCP results are redacted on ${dialect}`, { skip }, () => {
    const mcp = mcpClientSuite(dialect, async (db) => {
      await upsertEntities(
        db,
        [
          {
            slug: "host:nas",
            type: "host",
            name: "nas",
            attributes: {
              ansible_ssh_pass: SECRETS[0]!,
              note: `deploy token ${SECRETS[1]!}`,
              backup_url: `postgres://backup:${SECRETS[2]!}@db.lan:5432/backup`,
              "ssh.host": "10.0.0.5",
            },
          },
        ],
        { by: "test" },
      );
    });

    test("get_entity and list_entities show the entity without its secrets", async () => {
      for (const [tool, args] of [
        ["get_entity", { slug: "host:nas" }],
        ["list_entities", {}],
      ] as const) {
        const { text, isError } = await callTool(mcp.client, tool, args);
        assert.equal(isError, false, text);
        for (const secret of SECRETS) assert.ok(!text.includes(secret), `${tool} leaked ${secret}: ${text}`);
        if (tool === "get_entity")
          assert.ok(text.includes("10.0.0.5"), "the rest of the entity is still there");
      }
    });
  });
}
