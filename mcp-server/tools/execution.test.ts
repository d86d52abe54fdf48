import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { promisify } from "node:util";
import { approvePlan, decideApproval } from "../../store/consent.ts";
import { upsertEntities } from "../../store/entities.ts";
import { getExecution } from "../../store/executions.ts";
import { createTestSession } from "../../test-support/jobs/execution/execution-stack.ts";
import { labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { callTool, unframe } from "../../test-support/mcp-server/call-tool.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";

const unavailable = await sshLabUnavailable();
const execFileAsync = promisify(execFile);

interface Json {
  [key: string]: unknown;
}

describe("gated run over MCP against real sshd", {
  skip: unavailable ? `sshd unavailable: ${unavailable}` : false,
}, () => {
  const ssh = labSuite({ fileUrl: import.meta.url, waitMs: 10_000, selfTargets: ["host:beta"] });
  const run = ssh.run;

  test("a read-only command runs before any plan and returns its output", async () => {
    const session = await createTestSession(ssh.stack, "s-read");
    const result = await run(session, { target: "host:alpha", command: "echo hello; uname -s" });
    assert.equal(result.isError, false, result.text);
    const json = result.json as Json;
    assert.equal(json.status, "completed");
    assert.equal(json.exit_code, 0);
    assert.equal(unframe(json.stdout), "hello\nLinux\n");
    const rows = await ssh.stack.store.db
      .selectFrom("classifications")
      .selectAll()
      .where("session_id", "=", session)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.risk, "read_only");
    assert.equal(rows[0]!.decision, "allow");
  });

  test("secrets in command output are redacted before they are stored or returned", async () => {
    const session = await createTestSession(ssh.stack, "s-redact");
    const result = await run(session, {
      target: "host:alpha",
      // spelt in quoted halves: a secret written into a command is refused (secret_in_command); here the
      // host prints it
      command: 'echo db_pass""word=hunter2-secret; echo Author""ization: Bea""rer abcdefghijklmnop',
    });
    const json = result.json as Json;
    assert.equal(json.status, "completed", result.text);
    assert.doesNotMatch(String(json.stdout), /hunter2|abcdefghijklmnop/);
    assert.match(String(json.stdout), /\[REDACTED\]/);
    const row = await getExecution(ssh.stack.store.db, String(json.execution_id));
    assert.doesNotMatch(row?.stdout ?? "", /hunter2/);
  });

  test("no session id fails closed; an unknown target gets close matches", async () => {
    const none = await run(undefined, { target: "host:alpha", command: "true" });
    assert.equal(none.isError, true);
    assert.match(none.text, /no_session/);
    const session = await createTestSession(ssh.stack, "s-typo");
    const typo = await run(session, { target: "host:alpah", command: "true" });
    assert.equal(typo.isError, true);
    assert.match(typo.text, /did you mean host:alpha/);
  });

  test("two concurrent sessions: A's approved plan never lets B's config_mutation run", async () => {
    const a = await createTestSession(ssh.stack, "s-a", { status: "proposed" });
    const b = await createTestSession(ssh.stack, "s-b", { status: "proposed" });
    const approved = await approvePlan(ssh.stack.store.db, {
      sessionId: a,
      generation: 1,
      by: "op",
      via: "reaction",
    });
    assert.equal(approved.ok, true);
    const marker = (s: string) => `${ssh.lab.host("alpha").stateDir}/mutation-${s}`;
    const [ra, rb] = await Promise.all([
      run(a, { target: "host:alpha", command: `touch ${marker("a")}` }),
      run(b, { target: "host:alpha", command: `touch ${marker("b")}` }),
    ]);
    assert.equal(ra.isError, false, ra.text);
    assert.equal((ra.json as Json).status, "completed");
    assert.equal(rb.isError, true);
    assert.match(rb.text, /plan_not_approved/);
    const c = await createTestSession(ssh.stack, "s-c");
    const rc = await run(c, { target: "host:alpha", command: `touch ${marker("c")}` });
    assert.match(rc.text, /plan_required/);
    const check = await run(a, { target: "host:alpha", command: `ls ${ssh.lab.host("alpha").stateDir}` });
    assert.match(String((check.json as Json).stdout), /mutation-a/);
    assert.doesNotMatch(String((check.json as Json).stdout), /mutation-[bc]/);
  });

  test("a long command returns its execution id within the wait bound and completes later", async () => {
    const { client: quick } = await ssh.stack.withWait(300);
    const session = await createTestSession(ssh.stack, "s-long");
    // Blocks until the test releases it, so "not finished yet" holds however loaded the machine is.
    const release = `${ssh.lab.host("alpha").stateDir}/release-${process.pid}`;
    const started = await callTool(
      quick,
      "run",
      {
        target: "host:alpha",
        command: `until [ -e ${release} ]; do sleep 0.1; done; echo done`,
        purpose: "t",
      },
      session,
    );
    assert.equal(started.isError, false, started.text);
    const json = started.json as Json;
    assert.match(String(json.status), /^(queued|running)$/);
    assert.match(String(json.next_step), /get_execution_status/);
    const id = String(json.execution_id);
    const now = await callTool(quick, "get_execution_status", { execution_id: id }, session);
    assert.match(String((now.json as Json).status), /^(queued|running)$/);
    await writeFile(release, "");
    let status: Json = {};
    for (let i = 0; i < 100 && status.finished !== true; i++) {
      status = (await callTool(quick, "get_execution_status", { execution_id: id, wait: true }, session))
        .json as Json;
    }
    assert.equal(status.status, "completed");
    assert.equal(unframe(status.stdout), "done\n");
    const other = await callTool(quick, "get_execution_status", { execution_id: id }, "s-read");
    assert.equal(other.isError, true, "another session cannot read it");
  });

  test("a command past its timeout ends timed_out and leaves no process on the target", async () => {
    const session = await createTestSession(ssh.stack, "s-timeout");
    const marker = `sleep 47.${process.pid}`;
    const result = await run(session, { target: "host:alpha", command: marker, timeout_s: 1 });
    assert.equal(result.isError, false, result.text);
    assert.equal((result.json as Json).status, "timed_out");
    const { stdout } = await execFileAsync("ps", ["-eo", "args"]);
    assert.equal(
      stdout.split("\n").filter((line) => line.includes(marker)).length,
      0,
      `left behind: ${stdout}`,
    );
  });

  test("retry cap: the same failing command is refused after 3 failures in the session", async () => {
    const session = await createTestSession(ssh.stack, "s-retry");
    for (let i = 0; i < 3; i++) {
      const result = await run(session, { target: "host:alpha", command: "ls /definitely-missing-path" });
      assert.equal((result.json as Json).status, "failed");
    }
    const fourth = await run(session, { target: "host:alpha", command: "ls   /definitely-missing-path" });
    assert.equal(fourth.isError, true);
    assert.match(fourth.text, /retry_cap/);
    assert.match(fourth.text, /strace/);
    const elsewhere = await run(await createTestSession(ssh.stack, "s-retry-2"), {
      target: "host:alpha",
      command: "ls /definitely-missing-path",
    });
    assert.equal((elsewhere.json as Json).status, "failed", "other sessions are not capped");
  });

  test("one pending approval per session; approving it runs the command", async () => {
    // An approved plan whose assent window lapsed: a config_mutation needs its own approval.
    const session = await createTestSession(ssh.stack, "s-approval", { status: "approved" });
    const file = `${ssh.lab.host("beta").stateDir}/approved-${process.pid}`;
    const first = await run(session, { target: "host:beta", command: `touch ${file}` });
    assert.equal(first.isError, false, first.text);
    const gated = first.json as Json;
    assert.equal(gated.status, "pending_approval");
    assert.match(String(gated.message), /END YOUR TURN/);
    const second = await run(session, { target: "host:beta", command: `touch ${file}-2` });
    assert.equal(second.isError, true);
    assert.match(
      second.text,
      new RegExp(`wait for the operator to decide on execution ${gated.execution_id}`),
    );
    const other = await decideApproval(ssh.stack.store.db, {
      approvalId: String(gated.approval_id),
      sessionId: "s-read",
      decision: "approved",
      by: "op",
      via: "button",
    });
    assert.equal(!other.ok && other.code, "other_session");
    const decided = await decideApproval(ssh.stack.store.db, {
      approvalId: String(gated.approval_id),
      sessionId: session,
      decision: "approved",
      by: "op",
      via: "button",
    });
    assert.ok(decided.ok);
    for (const followUp of decided.followUps) {
      if (followUp.kind === "enqueue" && followUp.queue === "execute") {
        await ssh.stack.queue.enqueue("execute", followUp.data, { jobId: followUp.jobId });
      }
    }
    const status = await callTool(
      ssh.client,
      "get_execution_status",
      { execution_id: gated.execution_id, wait: true },
      session,
    );
    assert.equal((status.json as Json).status, "completed");
  });

  test("destructive needs a typed confirmation, even inside an approved plan", async () => {
    const session = await createTestSession(ssh.stack, "s-destroy", { status: "proposed" });
    await approvePlan(ssh.stack.store.db, { sessionId: session, generation: 1, by: "op", via: "reaction" });
    const result = await run(session, { target: "host:beta", command: "rm -rf /srv/data" });
    assert.equal(result.isError, false, result.text);
    const json = result.json as Json;
    assert.equal(json.status, "pending_approval");
    assert.equal(json.risk, "destructive");
    assert.match(String(json.message), /must type `confirm delete host:beta`/);
  });

  test("a host-only tool on a container is refused and pointed at its host", async () => {
    await upsertEntities(
      ssh.stack.store.db,
      [
        {
          slug: "lxc:guest",
          type: "lxc",
          name: "guest",
          transport: "pct-exec",
          parentSlug: "host:alpha",
          attributes: { vmid: 101 },
        },
      ],
      { by: "test" },
    );
    const session = await createTestSession(ssh.stack, "s-wrong-target");
    const result = await run(session, { target: "lxc:guest", command: "qm list" });
    assert.equal(result.isError, true);
    assert.match(result.text, /wrong_target/);
    assert.match(result.text, /run it on host:alpha/);
  });

  test("restarting what runs oikos itself needs a typed confirmation even in an approved plan", async () => {
    const session = await createTestSession(ssh.stack, "s-self", { status: "proposed" });
    await approvePlan(ssh.stack.store.db, { sessionId: session, generation: 1, by: "op", via: "reaction" });
    const result = await run(session, { target: "host:beta", command: "systemctl restart oikos" });
    assert.equal(result.isError, false, result.text);
    const json = result.json as Json;
    assert.equal(json.status, "pending_approval");
    assert.match(String(json.message), /must type `confirm \w+ host:beta`/);
    // the assent window still covers an ordinary config_mutation of this session elsewhere
    const elsewhere = await run(session, {
      target: "host:alpha",
      command: `touch ${ssh.lab.host("alpha").stateDir}/self-${process.pid}`,
    });
    assert.equal((elsewhere.json as Json).status, "completed", elsewhere.text);
  });

  test("cancel_execution stops a running command", async () => {
    const { client: quick } = await ssh.stack.withWait(500);
    const session = await createTestSession(ssh.stack, "s-cancel");
    const started = await callTool(
      quick,
      "run",
      { target: "host:alpha", command: "sleep 20", purpose: "t" },
      session,
    );
    const id = String((started.json as Json).execution_id);
    const cancelled = await callTool(quick, "cancel_execution", { execution_id: id }, session);
    assert.equal(cancelled.isError, false, cancelled.text);
    let row = await getExecution(ssh.stack.store.db, id);
    for (let i = 0; i < 10 && row?.status === "running"; i++) {
      await callTool(quick, "get_execution_status", { execution_id: id, wait: true }, session);
      row = await getExecution(ssh.stack.store.db, id);
    }
    assert.equal(row?.status, "cancelled");
  });

  test("run_many fans a read-only command out; a mutating one is refused per target", async () => {
    const session = await createTestSession(ssh.stack, "s-many");
    const result = await callTool(
      ssh.client,
      "run_many",
      { targets: ["host:alpha", "host:beta", "host:nope"], command: "uptime", purpose: "fleet" },
      session,
    );
    assert.equal(result.isError, false, result.text);
    const results = (result.json as { results: Json[] }).results;
    assert.deepEqual(
      results.map((r) => [r.target, r.status ?? r.code]),
      [
        ["host:alpha", "completed"],
        ["host:beta", "completed"],
        ["host:nope", "unknown_target"],
      ],
    );
    const mutating = await callTool(
      ssh.client,
      "run_many",
      { targets: ["host:alpha"], command: "touch /tmp/x", purpose: "fleet" },
      session,
    );
    assert.equal((mutating.json as { results: Json[] }).results[0]!.code, "not_read_only");
  });

  test("inspect_path reports mount, df, ls and stat of one path on many targets", async () => {
    const session = await createTestSession(ssh.stack, "s-inspect");
    const result = await callTool(
      ssh.client,
      "inspect_path",
      { path: "/tmp", targets: ["host:alpha", "host:beta"] },
      session,
    );
    assert.equal(result.isError, false, result.text);
    const results = (result.json as { results: Json[] }).results;
    assert.equal(results.length, 2);
    for (const item of results) {
      assert.equal(item.kind, "finished", JSON.stringify(item));
      for (const section of ["== mount", "== df", "== ls -la", "== stat"]) {
        assert.match(String(item.stdout), new RegExp(section));
      }
    }
  });
});
