import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveTarget } from "../jobs/execution/target-resolver.ts";
import { connectInMemoryClient } from "../mcp-server/in-memory.ts";
import { createMcpServer } from "../mcp-server/server.ts";
import { registerInventoryTools } from "../mcp-server/tools/inventory.ts";
import { registerTaskTools } from "../mcp-server/tools/task.ts";
import { tokenPrincipal } from "../policy/principal.ts";
import { callTool } from "../test-support/mcp-server/call-tool.ts";
import { createTestStore } from "../test-support/store.ts";
import { decideApproval } from "./consent.ts";
import { upsertEntities } from "./entities.ts";

// An outside attacker's finding: two routing cards approved one after the other composed into a
// route neither card showed. The second is now refused as stale.
test("a routing card approved after its entity was re-routed applies nothing (stale)", async () => {
  const store = await createTestStore("pglite");
  const db = store.db;
  await upsertEntities(
    db,
    [
      {
        slug: "host:pve",
        type: "host",
        name: "pve",
        transport: "ssh",
        attributes: { "ssh.host": "10.0.0.1" },
      },
      {
        slug: "lxc:web",
        type: "lxc",
        name: "web.lan",
        transport: "pct-exec",
        parentSlug: "host:pve",
        attributes: { vmid: 101 },
      },
    ],
    { by: "operator" },
  );
  const server = createMcpServer(
    { db, principal: tokenPrincipal("ext", "operator") } as never,
    [registerInventoryTools, registerTaskTools] as never,
  );
  const client = await connectInMemoryClient(server);
  const s1 = (await callTool(client, "start_session", { title: "fix web" })).json as { session_id: string };
  const s2 = (await callTool(client, "start_session", { title: "fix web 2" })).json as { session_id: string };
  const a = await callTool(
    client,
    "change_routing",
    { slug: "lxc:web", changes: { "ssh.host": "attacker.example" }, reason: "stale ip noticed" },
    s1.session_id,
  );
  const b = await callTool(
    client,
    "change_routing",
    { slug: "lxc:web", changes: { transport: "ssh" }, reason: "container now has sshd" },
    s2.session_id,
  );
  const codes: string[] = [];
  for (const [r, s] of [
    [a, s1],
    [b, s2],
  ] as const) {
    const res = await decideApproval(db, {
      approvalId: String((r.json as { approval_id?: string }).approval_id),
      sessionId: s.session_id,
      decision: "approved",
      by: "op",
      via: "button",
    });
    codes.push(res.ok ? "applied" : res.code);
  }
  assert.deepEqual(codes, ["applied", "stale"]);
  const t = await resolveTarget(db, "lxc:web", { sshUser: "root" });
  assert.ok(t.ok);
  assert.equal(t.target.transport, "pct-exec", "the route card A showed, not a combination");
  await client.close();
  await store.dispose();
});
