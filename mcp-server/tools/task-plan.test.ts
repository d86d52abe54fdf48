import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AGENT_PRINCIPAL } from "../../policy/principal.ts";
import { createSession } from "../../store/sessions.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import { availableDialects, createTestStore, type TestStore } from "../../test-support/store.ts";
import { connectInMemoryClient } from "../in-memory.ts";
import { createMcpServer } from "../server.ts";

for (const { dialect, skip } of availableDialects()) {
  describe(`update_plan_step refusals name the next action (${dialect})`, { skip }, () => {
    let store: TestStore;
    let client: Client;
    let sessionId: string;

    before(async () => {
      store = await createTestStore(dialect);
      client = await connectInMemoryClient(createMcpServer({ db: store.db, principal: AGENT_PRINCIPAL }));
      sessionId = (
        await createSession(store.db, { platform: "test", room: "r", thread: randomUUID(), createdBy: "op" })
      ).id;
      assert.equal(
        (await callTool(client, "set_goal", { goal: "Check disk usage" }, sessionId)).isError,
        false,
      );
      const plan = await callTool(
        client,
        "propose_plan",
        {
          steps: [
            { title: "Read df", risk: "read_only" },
            { title: "Read du of /var", risk: "read_only" },
          ],
        },
        sessionId,
      );
      assert.equal(plan.isError, false);
      for (const status of ["running", "done"]) {
        assert.equal(
          (await callTool(client, "update_plan_step", { seq: 1, status }, sessionId)).isError,
          false,
        );
      }
    });
    after(async () => {
      await client.close();
      await store.dispose();
    });

    test("a closed step going back names the next open step and how to correct it", async () => {
      const refused = await callTool(client, "update_plan_step", { seq: 1, status: "running" }, sessionId);
      assert.equal(refused.isError, true);
      assert.match(refused.text, /step 1 is already done/);
      assert.match(refused.text, /next open step is 2 "Read du of \/var".*update_plan_step\(2, running\)/);
      assert.match(refused.text, /mark it failed \(with a note\) or replaced \(with a replaced_reason/);
    });

    test("an unknown step lists the steps and names the next open one", async () => {
      const refused = await callTool(client, "update_plan_step", { seq: 9, status: "done" }, sessionId);
      assert.equal(refused.isError, true);
      assert.match(refused.text, /has no step 9/);
      assert.match(refused.text, /update_plan_step\(2, running\)/);
    });

    test("an execution of another session: pass the one run returned here, or omit it", async () => {
      const refused = await callTool(
        client,
        "update_plan_step",
        { seq: 2, status: "running", execution_id: "ex-not-this-session" },
        sessionId,
      );
      assert.equal(refused.isError, true);
      assert.match(
        refused.text,
        /Pass the execution_id that run returned in this session, or omit execution_id/,
      );
      const accepted = await callTool(client, "update_plan_step", { seq: 2, status: "running" }, sessionId);
      assert.equal(accepted.isError, false);
    });
  });
}
