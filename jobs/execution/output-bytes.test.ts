import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sql } from "kysely";
import { getExecution } from "../../store/executions.ts";
import { createTestSession } from "../../test-support/jobs/execution/execution-stack.ts";
import { labSuite } from "../../test-support/jobs/execution/lab-suite.ts";
import { unframe } from "../../test-support/mcp-server/call-tool.ts";
import { sshLabUnavailable } from "../../test-support/sshd/ssh-lab.ts";
import { availableDialects } from "../../test-support/store.ts";

const unavailable = await sshLabUnavailable();

interface Json {
  [key: string]: unknown;
}

// Output is bytes from the target. Postgres refuses NUL in text; before issue 13 such output made
// the result UPDATE fail and left the execution `running` forever.
for (const { dialect, skip } of availableDialects()) {
  describe(`command output as bytes on ${dialect}`, {
    skip: skip || (unavailable ? `sshd unavailable: ${unavailable}` : false),
  }, () => {
    const ssh = labSuite({ fileUrl: import.meta.url, dialect, waitMs: 15_000 });

    test("all-NUL output completes, flagged binary, with its byte count and a printable preview", async () => {
      const session = await createTestSession(ssh.stack, `s-nul-${dialect}`);
      const result = await ssh.run(session, { target: "host:alpha", command: "head -c 64 /dev/zero" });
      const json = result.json as Json;
      assert.equal(json.status, "completed", result.text);
      assert.match(unframe(json.stdout), /^\[binary output: 64 bytes;/);
      assert.match(String(json.stdout_binary), /^yes/);
      const row = await getExecution(ssh.stack.store.db, String(json.execution_id));
      assert.equal(row?.status, "completed");
      assert.equal(row?.stdout_binary, true);
      assert.ok(!row?.stdout?.includes("\u0000"));
    });

    test("text with NUL separators (like /proc/1/cmdline) keeps its text, NULs shown as ␀", async () => {
      const session = await createTestSession(ssh.stack, `s-cmdline-${dialect}`);
      const result = await ssh.run(session, {
        target: "host:alpha",
        command: "printf '/sbin/init\\0--log-level=info\\0splash\\0'; cat /proc/1/cmdline",
      });
      const json = result.json as Json;
      assert.equal(json.status, "completed", result.text);
      assert.ok(unframe(json.stdout).startsWith("/sbin/init␀--log-level=info␀splash␀"), String(json.stdout));
      assert.equal(json.stdout_binary, undefined);
    });

    test("invalid UTF-8 and terminal escapes are stored as valid text", async () => {
      const session = await createTestSession(ssh.stack, `s-utf8-${dialect}`);
      const result = await ssh.run(session, {
        target: "host:alpha",
        command: "printf 'caf\\351 \\033[31mred\\033[0m done\\n'",
      });
      const json = result.json as Json;
      assert.equal(json.status, "completed", result.text);
      assert.equal(unframe(json.stdout), "caf\ufffd red done\n");
    });

    test("a result the database refuses ends the execution failed with the reason, and it is reported", async () => {
      const db = ssh.stack.store.db;
      // A real refusal by the database: a trigger rejecting this output, as Postgres rejected NUL.
      await sql
        .raw(`
          CREATE OR REPLACE FUNCTION refuse_marked_output() RETURNS trigger AS $$
          BEGIN
            IF NEW.stdout LIKE '%refuse-this-output%' THEN
              RAISE EXCEPTION 'invalid byte sequence for encoding "UTF8": 0x00';
            END IF;
            RETURN NEW;
          END $$ LANGUAGE plpgsql`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER refuse_marked_output BEFORE UPDATE ON executions
                FOR EACH ROW EXECUTE FUNCTION refuse_marked_output()`)
        .execute(db);
      const finished: string[] = [];
      const unsubscribe = ssh.stack.events.subscribe("execution.finished", async (event) => {
        finished.push(`${event.executionId}:${event.status}`);
      });
      try {
        const session = await createTestSession(ssh.stack, `s-refused-${dialect}`);
        const result = await ssh.run(session, { target: "host:alpha", command: "echo refuse-this-output" });
        const json = result.json as Json;
        assert.equal(json.status, "failed", result.text);
        assert.match(String(json.reason), /ended completed \(exit 0\) but its result could not be stored/);
        const row = await getExecution(db, String(json.execution_id));
        assert.equal(row?.status, "failed");
        assert.ok(row?.finished_at, "it has ended");
        for (let i = 0; i < 50 && !finished.includes(`${row?.id}:failed`); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.ok(
          finished.includes(`${row?.id}:failed`),
          `execution.finished published: ${finished.join(", ")}`,
        );
      } finally {
        unsubscribe();
        await sql.raw("DROP TRIGGER refuse_marked_output ON executions").execute(db);
      }
    });
  });
}
