import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decideApproval } from "../../store/consent.ts";
import { findEntity, updateEntityAttributes } from "../../store/entities.ts";
import { getExecution } from "../../store/executions.ts";
import { createTestSession } from "../../test-support/jobs/execution/execution-stack.ts";
import { type LabSuite, labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { callTool, unframe } from "../../test-support/mcp-server/call-tool.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

interface Json {
  [key: string]: unknown;
}

const auditOf = (ssh: LabSuite, action: string, subject: string) =>
  ssh.stack.store.db
    .selectFrom("audit_log")
    .select(["details", "actor"])
    .where("action", "=", action)
    .where("subject", "=", subject)
    .execute();

const pendingRoutingApprovals = (ssh: LabSuite, sessionId: string) =>
  ssh.stack.store.db
    .selectFrom("approvals")
    .innerJoin("routing_changes", "routing_changes.approval_id", "approvals.id")
    .select(["approvals.id", "routing_changes.patch", "routing_changes.reason"])
    .where("approvals.session_id", "=", sessionId)
    .where("approvals.status", "=", "pending")
    .execute();

describe("read-only runs in the read-only jail: detection, records, the required gate", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({ fileUrl: import.meta.url, waitMs: 10_000, readOnlyJail: "auto" });
  const db = () => ssh.stack.store.db;

  test("auto: a read-only run is jailed with no grants, recorded on the execution, detected once on the entity", async () => {
    const session = await createTestSession(ssh.stack, "s-jail-auto");
    const first = await ssh.run(session, { target: "host:alpha", command: "grep NSpid /proc/self/status" });
    assert.equal(first.isError, false, first.text);
    const json = first.json as Json;
    assert.equal(json.kind, "finished", first.text);
    assert.equal(json.jail, "jailed");
    assert.match(unframe(String(json.stdout)), /^NSpid:\s+\d+\s+\d+\n$/, "in a child PID namespace");
    const row = await getExecution(db(), String(json.execution_id));
    assert.equal(row?.jail_plan, "require");
    assert.equal(row?.jailed, true);
    assert.deepEqual(row?.jail_grants, []);
    assert.equal(row?.jail_engine, "unshare");
    const entity = await findEntity(db(), "host:alpha");
    assert.equal(entity?.attributes.jail, "available");
    assert.equal(entity?.attributes["jail.engine"], "unshare", "the engine is recorded at detection");
    assert.equal((await auditOf(ssh, "target.jail_detected", "host:alpha")).length, 1);

    const second = await ssh.run(session, { target: "host:alpha", command: "uptime" });
    assert.equal((second.json as Json).jail, "jailed");
    assert.equal((await auditOf(ssh, "target.jail_detected", "host:alpha")).length, 1, "once per target");

    const [audited] = await auditOf(ssh, "execution.jail", String(json.execution_id));
    assert.deepEqual(audited?.details, { target: "host:alpha", jailed: true, engine: "unshare" });

    const status = await callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: json.execution_id },
      session,
    );
    const view = status.json as Json;
    assert.equal(view.jailed, true, status.text);
    assert.deepEqual(view.jail_grants, []);
    assert.equal(view.jail_engine, "unshare");
  });

  test("grants end to end: the proof's grant opens exactly that, and a spec's `unjailed` runs outside by name — recorded, shown, audited", async () => {
    const session = await createTestSession(ssh.stack, "s-jail-grants");
    const granted = await ssh.run(session, { target: "host:alpha", command: "ip -br link show lo" });
    const json = granted.json as Json;
    assert.equal(json.kind, "finished", granted.text);
    assert.match(
      unframe(String(json.stdout)),
      /^lo\s+UNKNOWN/,
      "the host's loopback, seen through the netlink grant",
    );
    assert.equal(json.jail, "jailed (granted: network configuration (netlink, read))");
    const row = await getExecution(db(), String(json.execution_id));
    assert.deepEqual(row?.jail_grants, [{ resource: "netlink" }]);
    const [audited] = await auditOf(ssh, "execution.jail", String(json.execution_id));
    assert.deepEqual((audited?.details as Json | undefined)?.grants, [{ resource: "netlink" }]);
    const status = await callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: json.execution_id },
      session,
    );
    assert.deepEqual((status.json as Json).jail_grants, ["network configuration (netlink, read)"]);

    const outside = await ssh.run(session, { target: "host:alpha", command: "iptables -S" });
    const sent = outside.json as Json;
    assert.ok(sent.execution_id, outside.text);
    const unjailedRow = await getExecution(db(), String(sent.execution_id));
    assert.equal(unjailedRow?.jail_plan, "off");
    assert.equal(unjailedRow?.jailed, false);
    assert.equal(unjailedRow?.jail_note, "unjailed: needs CAP_NET_ADMIN (proven by spec iptables)");
    const [note] = await auditOf(ssh, "execution.jail", String(sent.execution_id));
    assert.equal(
      (note?.details as Json | undefined)?.note,
      "unjailed: needs CAP_NET_ADMIN (proven by spec iptables)",
    );
    const view = await callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: sent.execution_id },
      session,
    );
    assert.deepEqual((view.json as Json).jail_grants, [
      "unjailed: needs CAP_NET_ADMIN (proven by spec iptables)",
    ]);
  });

  test("a target recorded unable to jail: nothing runs unasked (the operator is asked), never a silent fallback", async () => {
    await updateEntityAttributes(
      db(),
      "host:beta",
      { jail: "unavailable: unshare is missing (util-linux)", "jail.checked_at": new Date().toISOString() },
      { by: "test" },
    );
    const session = await createTestSession(ssh.stack, "s-jail-auto-unavailable");
    const outcome = await ssh.run(session, { target: "host:beta", command: "echo RAN" });
    const json = outcome.json as Json;
    assert.equal(json.kind, "approval_requested", outcome.text);
    assert.equal(json.risk, "read_only");
    const row = await getExecution(db(), String(json.execution_id));
    assert.equal(row?.status, "pending_approval", "it did not run");
    const many = await callTool(
      ssh.client,
      "run_many",
      { targets: ["host:alpha", "host:beta"], command: "uptime", purpose: "fleet" },
      await createTestSession(ssh.stack, "s-jail-auto-unavailable-many"),
    );
    const results = (many.json as { results: Json[] }).results;
    assert.deepEqual(
      results.map((r) => r.code ?? r.kind),
      ["finished", "jail_unavailable"],
      many.text,
    );
  });

  test("the operator's standing allowance: read-only commands then run unjailed there, saying why; `required` ignores it", async () => {
    await updateEntityAttributes(
      db(),
      "host:beta",
      { "jail.unjailed_read_only": "allowed" },
      { by: "operator" },
    );
    try {
      const session = await createTestSession(ssh.stack, "s-jail-allowed");
      const outcome = await ssh.run(session, {
        target: "host:beta",
        command: "grep NSpid /proc/self/status",
      });
      const json = outcome.json as Json;
      assert.equal(json.kind, "finished", outcome.text);
      assert.match(unframe(String(json.stdout)), /^NSpid:\s+\d+\n$/, "no PID namespace: unjailed");
      assert.equal(
        json.jail,
        "not jailed: this target cannot jail (unshare is missing (util-linux)); the operator allowed read-only commands to run unjailed on it",
      );
      await updateEntityAttributes(db(), "host:beta", { "jail.mode": "required" }, { by: "operator" });
      const required = await ssh.run(await createTestSession(ssh.stack, "s-jail-allowed-required"), {
        target: "host:beta",
        command: "uptime",
      });
      assert.equal((required.json as Json).kind, "approval_requested", required.text);
    } finally {
      await updateEntityAttributes(
        db(),
        "host:beta",
        { "jail.mode": null, "jail.unjailed_read_only": null },
        { by: "test" },
      );
    }
  });
});

/**
 * Real targets whose kernel refuses the jail: one whose sessions are chrooted (no new user
 * namespaces there), one whose sessions live in a user namespace with user.max_user_namespaces = 0.
 */
describe("targets that cannot jail: the command does not run, the operator is told once, and decides", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({
    fileUrl: import.meta.url,
    waitMs: 10_000,
    readOnlyJail: "auto",
    hosts: [
      { name: "alpha", sessionsChrooted: true },
      { name: "beta", userNamespacesExhausted: true },
    ],
  });
  const db = () => ssh.stack.store.db;

  for (const [slug, why] of [
    ["host:alpha", /\S/],
    ["host:beta", /user namespaces are switched off here \(user\.max_user_namespaces = 0\)/],
  ] as const) {
    test(`${slug}: the first read-only run fails closed, is detected, audited and offered to the operator once`, async () => {
      const session = await createTestSession(ssh.stack, `s-nojail-${slug}`);
      const outcome = await ssh.run(session, { target: slug, command: "echo RAN" });
      const json = outcome.json as Json;
      assert.equal(json.status, "failed", outcome.text);
      assert.doesNotMatch(unframe(String(json.stdout ?? "")), /RAN/, "the command did not run");
      assert.match(String(json.reason), new RegExp(`^the read-only jail cannot start on ${slug} \\(`));
      assert.match(String(json.reason), why);
      assert.match(String(json.jail), /^not jailed: the read-only jail cannot start/);
      const entity = await findEntity(db(), slug);
      assert.match(String(entity?.attributes.jail), /^unavailable: \S/);
      assert.ok(entity?.attributes["jail.checked_at"]);
      assert.equal((await auditOf(ssh, "target.jail_detected", slug)).length, 1);
      const [unjailed] = await auditOf(ssh, "execution.jail", String(json.execution_id));
      assert.equal((unjailed?.details as Json | undefined)?.jailed, false);

      // shown once: one routing card asking to allow read-only commands unjailed there
      const offers = await pendingRoutingApprovals(ssh, session);
      assert.equal(offers.length, 1);
      assert.deepEqual(offers[0]?.patch, { "jail.unjailed_read_only": "allowed" });
      assert.match(String(offers[0]?.reason), /cannot run the read-only jail/);

      // the next read-only command asks (it does not try and fail again, and is not offered again)
      const again = await ssh.run(session, { target: slug, command: "uptime" });
      assert.equal((again.json as Json).kind, "approval_requested", again.text);
      assert.equal((await pendingRoutingApprovals(ssh, session)).length, 1, "told once");

      // the operator allows it: the allowance is routing, applied by the operator and audited
      const decided = await decideApproval(db(), {
        approvalId: String(offers[0]?.id),
        sessionId: session,
        decision: "approved",
        by: "@op:lab",
        via: "reaction",
      });
      assert.equal(decided.ok, true, JSON.stringify(decided));
      const changed = await auditOf(ssh, "routing_changed", slug);
      assert.equal(changed.at(-1)?.actor, "@op:lab");
      const allowed = await ssh.run(await createTestSession(ssh.stack, `s-nojail-allowed-${slug}`), {
        target: slug,
        command: "echo RAN",
      });
      const ran = allowed.json as Json;
      assert.equal(ran.kind, "finished", allowed.text);
      assert.equal(unframe(String(ran.stdout)), "RAN\n");
      assert.match(String(ran.jail), /^not jailed: this target cannot jail .*the operator allowed/);
    });
  }
});
