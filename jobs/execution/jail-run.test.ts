import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { findEntity, updateEntityAttributes } from "../../store/entities.ts";
import { getExecution } from "../../store/executions.ts";
import { createTestSession } from "../../test-support/jobs/execution/execution-stack.ts";
import { labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { callTool, unframe } from "../../test-support/mcp-server/call-tool.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();

interface Json {
  [key: string]: unknown;
}

describe("read-only runs in the read-only jail: detection, records, the required gate", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({ fileUrl: import.meta.url, waitMs: 10_000, readOnlyJail: "auto" });
  const db = () => ssh.stack.store.db;
  const detections = (slug: string) =>
    db()
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("action", "=", "target.jail_detected")
      .where("subject", "=", slug)
      .execute();

  test("auto: a read-only run is jailed, recorded on the execution, detected once on the entity", async () => {
    const session = await createTestSession(ssh.stack, "s-jail-auto");
    const first = await ssh.run(session, { target: "host:alpha", command: "grep NSpid /proc/self/status" });
    assert.equal(first.isError, false, first.text);
    const json = first.json as Json;
    assert.equal(json.kind, "finished", first.text);
    assert.equal(json.jail, "jailed");
    assert.match(unframe(String(json.stdout)), /^NSpid:\s+\d+\s+\d+\n$/, "in a child PID namespace");
    const row = await getExecution(db(), String(json.execution_id));
    assert.equal(row?.jail_plan, "prefer");
    assert.equal(row?.jailed, true);
    const entity = await findEntity(db(), "host:alpha");
    assert.equal(entity?.attributes.jail, "available");
    assert.equal((await detections("host:alpha")).length, 1);

    const second = await ssh.run(session, { target: "host:alpha", command: "uptime" });
    assert.equal((second.json as Json).jail, "jailed");
    assert.equal((await detections("host:alpha")).length, 1, "detected once per target, not per run");

    const audited = await db()
      .selectFrom("audit_log")
      .select(["details"])
      .where("action", "=", "execution.jail")
      .where("subject", "=", String(json.execution_id))
      .executeTakeFirst();
    assert.deepEqual(audited?.details, { target: "host:alpha", jailed: true });

    const status = await callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: json.execution_id },
      session,
    );
    assert.equal((status.json as Json).jailed, true, status.text);
  });

  test("auto on a target recorded unable to jail: runs unjailed and says why", async () => {
    await updateEntityAttributes(
      db(),
      "host:beta",
      { jail: "unavailable: unshare is missing (util-linux)", "jail.checked_at": new Date().toISOString() },
      { by: "test" },
    );
    const session = await createTestSession(ssh.stack, "s-jail-auto-unavailable");
    const outcome = await ssh.run(session, { target: "host:beta", command: "grep NSpid /proc/self/status" });
    const json = outcome.json as Json;
    assert.equal(json.kind, "finished", outcome.text);
    assert.equal(json.jail, "not jailed: this target cannot jail: unshare is missing (util-linux)");
    assert.match(unframe(String(json.stdout)), /^NSpid:\s+\d+\n$/, "no PID namespace");
  });

  test("required on a target that cannot jail: a read-only command waits for the operator; run_many refuses", async () => {
    await updateEntityAttributes(db(), "host:beta", { "jail.mode": "required" }, { by: "test" });
    try {
      const session = await createTestSession(ssh.stack, "s-jail-required");
      const many = await callTool(
        ssh.client,
        "run_many",
        { targets: ["host:alpha", "host:beta"], command: "uptime", purpose: "fleet" },
        session,
      );
      const results = (many.json as { results: Json[] }).results;
      assert.deepEqual(
        results.map((r) => r.code ?? r.kind),
        ["finished", "jail_unavailable"],
        many.text,
      );
      const outcome = await ssh.run(session, { target: "host:beta", command: "uptime" });
      const json = outcome.json as Json;
      assert.equal(json.kind, "approval_requested", outcome.text);
      assert.equal(json.risk, "read_only");
      const row = await getExecution(db(), String(json.execution_id));
      assert.equal(row?.status, "pending_approval");
      assert.equal(row?.jail_plan, "off", "once approved it runs exactly as approved");
    } finally {
      await updateEntityAttributes(db(), "host:beta", { "jail.mode": null }, { by: "test" });
    }
  });
});

/** A real target whose kernel refuses the jail: its sessions are chrooted (no new user namespaces there). */
describe("a target where unshare is refused: detected unavailable; auto runs unjailed, required asks", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({
    fileUrl: import.meta.url,
    waitMs: 10_000,
    readOnlyJail: "auto",
    hosts: [{ name: "alpha", sessionsChrooted: true }, { name: "beta" }],
  });
  const db = () => ssh.stack.store.db;

  test("auto: the first read-only run detects it, records it on the entity, audits it, and runs unjailed", async () => {
    const session = await createTestSession(ssh.stack, "s-nojail-auto");
    const outcome = await ssh.run(session, { target: "host:alpha", command: "grep NSpid /proc/self/status" });
    const json = outcome.json as Json;
    assert.equal(json.kind, "finished", outcome.text);
    assert.match(unframe(String(json.stdout)), /^NSpid:\s+\d+\n$/, "it ran, unjailed");
    assert.match(
      String(json.jail),
      /^not jailed: the read-only jail could not start on host:alpha: .+; ran unjailed/,
    );
    const entity = await findEntity(db(), "host:alpha");
    assert.match(String(entity?.attributes.jail), /^unavailable: \S/);
    assert.ok(entity?.attributes["jail.checked_at"]);
    const audit = await db()
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "target.jail_detected")
      .where("subject", "=", "host:alpha")
      .execute();
    assert.equal(audit.length, 1);
    const unjailed = await db()
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "execution.jail")
      .where("subject", "=", String(json.execution_id))
      .executeTakeFirst();
    assert.equal((unjailed?.details as Json | undefined)?.jailed, false);
    assert.match(String((unjailed?.details as Json | undefined)?.note), /could not start on host:alpha/);

    const again = await ssh.run(session, { target: "host:alpha", command: "uptime" });
    assert.match(
      String((again.json as Json).jail),
      /^not jailed: this target cannot jail: /,
      "no second attempt",
    );
  });

  test("required: the next read-only command on it waits for the operator's approval", async () => {
    await updateEntityAttributes(db(), "host:alpha", { "jail.mode": "required" }, { by: "test" });
    const session = await createTestSession(ssh.stack, "s-nojail-required");
    const outcome = await ssh.run(session, { target: "host:alpha", command: "uptime" });
    const json = outcome.json as Json;
    assert.equal(json.kind, "approval_requested", outcome.text);
    assert.equal(json.risk, "read_only");
  });

  test("required on a target never tried: the jailed attempt fails, the command does not run", async () => {
    await updateEntityAttributes(
      db(),
      "host:alpha",
      { jail: null, "jail.checked_at": null, "jail.mode": "required" },
      { by: "test" },
    );
    const session = await createTestSession(ssh.stack, "s-nojail-required-first");
    const outcome = await ssh.run(session, { target: "host:alpha", command: "echo RAN" });
    const json = outcome.json as Json;
    assert.equal(json.status, "failed", outcome.text);
    assert.doesNotMatch(unframe(String(json.stdout ?? "")), /RAN/);
    assert.match(
      String(json.reason),
      /could not start on host:alpha: .+ required there, so the command did not run/,
    );
    const entity = await findEntity(db(), "host:alpha");
    assert.match(String(entity?.attributes.jail), /^unavailable: /);
  });
});
