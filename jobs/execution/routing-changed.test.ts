import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";
import { decideApproval } from "../../store/consent.ts";
import { updateEntityAttributes, upsertEntities } from "../../store/entities.ts";
import { getExecution } from "../../store/executions.ts";
import { changeRouting } from "../../store/routing-change.ts";
import { createTestSession, hostEntity } from "../../test-support/jobs/execution/execution-stack.ts";
import { labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { callTool } from "../../test-support/mcp-server/call-tool.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { createTestStore } from "../../test-support/store.ts";

const unavailable = await sshLabUnavailable();

describe("an execution runs only where it was approved to run", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({ fileUrl: import.meta.url, waitMs: 10_000 });

  /** A config_mutation on `slug` waiting for its own approval (the plan was approved, its window lapsed). */
  async function pendingTouch(session: string, slug: string, file: string) {
    await createTestSession(ssh.stack, session, { status: "approved" });
    const gated = await ssh.run(session, { target: slug, command: `touch ${file}` });
    assert.equal(gated.isError, false, gated.text);
    const json = gated.json as { status: string; execution_id: string; approval_id: string };
    assert.equal(json.status, "pending_approval");
    return json;
  }

  async function approveAndWait(session: string, gated: { execution_id: string; approval_id: string }) {
    const decided = await decideApproval(ssh.stack.store.db, {
      approvalId: gated.approval_id,
      sessionId: session,
      decision: "approved",
      by: "op",
      via: "button",
    });
    assert.ok(decided.ok);
    for (const followUp of decided.followUps)
      if (followUp.kind === "enqueue" && followUp.queue === "execute")
        await ssh.stack.queue.enqueue("execute", followUp.data, { jobId: followUp.jobId });
    return callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: gated.execution_id, wait: true },
      session,
    );
  }

  test("re-routed after approval was asked: refused routing_changed at the worker, nothing runs", async () => {
    const alpha = ssh.lab.host("alpha");
    await upsertEntities(ssh.stack.store.db, [{ ...hostEntity(alpha), slug: "host:gamma", name: "gamma" }], {
      by: "test",
    });
    const file = `${alpha.stateDir}/rerouted-${process.pid}`;
    const gated = await pendingTouch("s-rerouted", "host:gamma", file);
    const row = await getExecution(ssh.stack.store.db, gated.execution_id);
    assert.deepEqual(row?.routing, {
      slug: "host:gamma",
      transport: "ssh",
      ssh: { host: alpha.host, port: alpha.port, username: alpha.username },
    });

    const beta = ssh.lab.host("beta");
    const changed = await changeRouting(
      ssh.stack.store.db,
      "host:gamma",
      { "ssh.host": beta.host, "ssh.port": beta.port },
      { by: "admin" },
    );
    assert.ok(changed.ok && changed.changed);
    const status = await approveAndWait("s-rerouted", gated);
    const json = status.json as { status: string; reason?: string };
    assert.equal(json.status, "failed");
    assert.match(String(json.reason), /routing_changed/);
    assert.match(
      String(json.reason),
      new RegExp(`approved for ssh ${alpha.username}@${alpha.host}:${alpha.port}`),
    );
    assert.equal(existsSync(file), false, "the approved touch ran nowhere");
    const audit = await ssh.stack.store.db
      .selectFrom("audit_log")
      .select(["actor", "details"])
      .where("action", "=", "routing_changed")
      .where("subject", "=", "host:gamma")
      .executeTakeFirstOrThrow();
    assert.equal(audit.actor, "admin");
    assert.deepEqual(
      (audit.details as { before: { attributes: Record<string, unknown> } }).before.attributes,
      {
        "ssh.host": alpha.host,
        "ssh.port": alpha.port,
        "ssh.user": alpha.username,
      },
    );
  });

  test("a change to attributes that do not route it does not stop an approved execution", async () => {
    const file = `${ssh.lab.host("beta").stateDir}/not-rerouted-${process.pid}`;
    const gated = await pendingTouch("s-not-rerouted", "host:beta", file);
    await updateEntityAttributes(
      ssh.stack.store.db,
      "host:beta",
      { note: "observed", os: "debian" },
      { by: "agent" },
    );
    const status = await approveAndWait("s-not-rerouted", gated);
    assert.equal((status.json as { status: string }).status, "completed", status.text);
    assert.equal(existsSync(file), true);
  });
});

describe("changeRouting (the operator's path)", () => {
  test("refuses keys that are not routing, unknown transports and unknown owning hosts", async () => {
    const store = await createTestStore();
    try {
      await upsertEntities(store.db, [{ slug: "lxc:gitea", type: "lxc", name: "gitea" }], { by: "test" });
      const notRouting = await changeRouting(store.db, "lxc:gitea", { note: "x" }, { by: "admin" });
      assert.equal(notRouting.ok, false);
      const badTransport = await changeRouting(
        store.db,
        "lxc:gitea",
        { transport: "telnet" },
        { by: "admin" },
      );
      assert.equal(badTransport.ok, false);
      const badParent = await changeRouting(store.db, "lxc:gitea", { parent: "host:nope" }, { by: "admin" });
      assert.equal(badParent.ok, false);
      assert.equal((await changeRouting(store.db, "lxc:none", { vmid: 1 }, { by: "admin" })).ok, false);
      await upsertEntities(store.db, [{ slug: "host:pve1", type: "host", name: "pve1" }], { by: "test" });
      const moved = await changeRouting(
        store.db,
        "lxc:gitea",
        { transport: "pct-exec", parent: "host:pve1", vmid: 105 },
        { by: "admin" },
      );
      assert.ok(moved.ok);
      assert.deepEqual(moved.after, {
        transport: "pct-exec",
        parent: "host:pve1",
        attributes: { vmid: 105 },
      });
      const again = await changeRouting(store.db, "lxc:gitea", { vmid: 105 }, { by: "admin" });
      assert.ok(again.ok && !again.changed, "no change, no audit row");
      const audits = await store.db
        .selectFrom("audit_log")
        .select("id")
        .where("action", "=", "routing_changed")
        .execute();
      assert.equal(audits.length, 1);
    } finally {
      await store.dispose();
    }
  });
});
