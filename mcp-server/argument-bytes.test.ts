import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { upsertEntities } from "../store/entities.ts";
import { mcpClientSuite } from "../test-support/mcp-client-suite.ts";
import { callTool } from "../test-support/mcp-server/call-tool.ts";
import { availableDialects } from "../test-support/store.ts";
import { findControlByte } from "./argument-bytes.ts";

test("findControlByte names the field, nested paths and keys included; tab and newline are text", () => {
  assert.equal(findControlByte({ command: "echo a\tb\nc\r" }), null);
  assert.deepEqual(findControlByte({ command: "ls\u0000-la" }), {
    path: "command",
    index: 2,
    name: "a NUL byte (\\0)",
  });
  assert.deepEqual(findControlByte({ attributes: { note: "x\u001b[31m" } }), {
    path: "attributes.note",
    index: 1,
    name: "the control character 0x1b",
  });
  assert.equal(findControlByte({ about: ["lxc:a", "lxc:\u0000b"] })?.path, "about[1]");
  assert.equal(findControlByte({ attributes: { "k\u0000": 1 } })?.path, "attributes.k\u0000 (the key)");
});

for (const { dialect, skip } of availableDialects()) {
  describe(`control bytes in tool arguments are refused by field on ${dialect}`, { skip }, () => {
    const mcp = mcpClientSuite(dialect, async (db) => {
      await upsertEntities(db, [{ slug: "lxc:gitea", type: "lxc", name: "gitea" }], { by: "test" });
    });

    test("NUL in knowledge text, a slug or an attribute is a validation refusal, not an internal error", async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        [
          "upsert_knowledge",
          {
            title: "gitea notes",
            content: "line\u0000two",
            kind: "document",
            about: ["lxc:gitea"],
            tags: [],
          },
          "content",
        ],
        ["get_entity", { slug: "lxc:gi\u0000tea" }, "slug"],
        [
          "update_entity_attributes",
          { slug: "lxc:gitea", attributes: { note: "a\u0000b" } },
          "attributes.note",
        ],
      ];
      for (const [tool, args, field] of cases) {
        const result = await callTool(mcp.client, tool, args);
        assert.equal(result.isError, true, `${tool}: ${result.text}`);
        assert.match(
          result.text,
          new RegExp(`Invalid argument \`${field.replace(/[.[\]]/g, "\\$&")}\``),
          result.text,
        );
        assert.doesNotMatch(result.text, /internal error/);
      }
      const rows = await mcp.store.db.selectFrom("knowledge").select("title").execute();
      assert.equal(rows.length, 0, "nothing was written");
    });
  });
}
