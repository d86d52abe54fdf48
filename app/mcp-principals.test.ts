import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sql } from "kysely";
import { approvePlan } from "../store/consent.ts";
import { insertPlanGeneration } from "../store/plans.ts";
import { createSession } from "../store/sessions.ts";
import { callTool } from "../test-support/mcp-server/call-tool.ts";
import { OIKOS_BIN } from "../test-support/run-cli.ts";
import { createTestStore, type TestStore } from "../test-support/store.ts";

const TOKENS = {
  a: "token-of-client-a-0123456789",
  b: "token-of-client-b-0123456789",
  reader: "token-of-the-reader-01234567",
};

/**
 * The borrowing attack of issue 13, against `oikos start` as a process over real HTTP: a client
 * holding a valid token names a chat session whose plan the operator approved, and asks to run a
 * mutation on local:oikos. It must be refused, audited, and nothing may run.
 */
describe("MCP principals over real HTTP (`oikos start`, Postgres)", {
  skip: !process.env.DATABASE_URL,
}, () => {
  let store: TestStore;
  let dir: string;
  let child: ChildProcess;
  let url: string;
  let chatSession: string;

  before(async () => {
    store = await createTestStore("postgres");
    dir = mkdtempSync(join(tmpdir(), "oikos-principals-"));
    // A chat session (owned by the agent) whose plan the operator approved: its assent window is open.
    const chat = await createSession(store.db, {
      platform: "matrix",
      room: "!ops:example.org",
      thread: "$root",
      createdBy: "@op:example.org",
      goal: "tidy the scratch folder",
    });
    chatSession = chat.id;
    await insertPlanGeneration(
      store.db,
      chat.id,
      [{ title: "touch files", target: "local:oikos", risk: "config_mutation" }],
      {
        needsApproval: true,
        now: new Date(),
      },
    );
    const approved = await approvePlan(store.db, {
      sessionId: chat.id,
      generation: 1,
      by: "@op:example.org",
      via: "reaction",
    });
    assert.equal(approved.ok, true);

    const database = await sql<{ name: string }>`select current_database() as name`.execute(store.db);
    const databaseUrl = new URL(process.env.DATABASE_URL!);
    databaseUrl.pathname = `/${database.rows[0]!.name}`;
    const config = join(dir, "oikos.yaml");
    writeFileSync(
      config,
      [
        "mcp:",
        "  tokens:",
        `    - { name: a, token: ${TOKENS.a}, role: operator }`,
        `    - { name: b, token: ${TOKENS.b}, role: operator }`,
        `    - { name: reader, token: ${TOKENS.reader}, role: read }`,
        "",
      ].join("\n"),
    );
    child = spawn(process.execPath, [OIKOS_BIN, "start"], {
      env: {
        PATH: process.env.PATH ?? "",
        OIKOS_CONFIG: config,
        OIKOS_DATA_DIR: dir,
        DATABASE_URL: databaseUrl.toString(),
        OIKOS_SHELL: "false",
        OIKOS_HTTP_PORT: "0",
        OIKOS_LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on("data", (chunk) => {
        stderr += chunk;
        const match = /"url":"(http:\/\/[^"]+)".*"msg":"http server listening"/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.on("close", (code) => reject(new Error(`oikos exited early (${code}): ${stderr}`)));
    });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.kill("SIGTERM");
      await closed;
    }
    rmSync(dir, { recursive: true, force: true });
    await store?.dispose();
  });

  async function client(token: string): Promise<Client> {
    const mcp = new Client({ name: "principals-test", version: "0.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    return mcp;
  }

  async function executionsOf(sessionId: string): Promise<number> {
    const rows = await store.db
      .selectFrom("executions")
      .select("id")
      .where("session_id", "=", sessionId)
      .execute();
    return rows.length;
  }

  test("a client naming the chat session whose plan the operator approved is refused, audited, and nothing runs", async () => {
    const marker = join(dir, "borrowed-approval");
    for (const [name, token] of [
      ["a", TOKENS.a],
      ["b", TOKENS.b],
    ] as const) {
      const attacker = await client(token);
      try {
        const run = await callTool(
          attacker,
          "run",
          { target: "local:oikos", command: `touch ${marker}`, purpose: "unrelated" },
          chatSession,
        );
        assert.equal(run.structured?.code, "session_not_yours", run.text);
        const research = await callTool(
          attacker,
          "run",
          { target: "local:oikos", command: "uptime", purpose: "x" },
          chatSession,
        );
        assert.equal(
          research.structured?.code,
          "session_not_yours",
          "not even read-only research rides a chat session",
        );
        const status = await callTool(attacker, "get_execution_status", { execution_id: "x" }, chatSession);
        assert.equal(status.structured?.code, "session_not_yours");
        const complete = await callTool(
          attacker,
          "complete_task",
          { outcome: "success", summary: "done" },
          chatSession,
        );
        assert.equal(complete.structured?.code, "session_not_yours");
      } finally {
        await attacker.close();
      }
      const audit = await store.db
        .selectFrom("audit_log")
        .select(["actor", "details"])
        .where("action", "=", "session_not_yours")
        .where("session_id", "=", chatSession)
        .where("actor", "=", `mcp:${name}`)
        .execute();
      assert.equal(audit.length, 4, `every refused call of mcp:${name} is audited with its principal`);
    }
    assert.equal(existsSync(marker), false, "the touch never ran");
    assert.equal(await executionsOf(chatSession), 0, "no execution row was written in the chat session");
    const chat = await store.db
      .selectFrom("sessions")
      .select("status")
      .where("id", "=", chatSession)
      .executeTakeFirstOrThrow();
    assert.notEqual(chat.status, "done", "the chat task was not completed by the outsider");
  });

  test("start_session gives a client its own session; another token cannot use it, its owner can", async () => {
    const a = await client(TOKENS.a);
    const b = await client(TOKENS.b);
    try {
      const started = await callTool(a, "start_session", {
        title: "disk check",
        goal: "see how full the disks are",
      });
      assert.equal(started.isError, false, started.text);
      const id = String((started.json as { session_id: string }).session_id);
      const me = (await callTool(a, "whoami", {}, id)).json as {
        principal: { id: string };
        session: { id: string };
      };
      assert.deepEqual([me.principal.id, me.session.id], ["mcp:a", id]);
      const own = await callTool(a, "run", { target: "local:oikos", command: "uptime", purpose: "load" }, id);
      assert.equal(own.isError, false, `the owner runs read-only research in its own session: ${own.text}`);
      const executionId = String((own.json as { execution_id: string }).execution_id);

      for (const [tool, args] of [
        ["run", { target: "local:oikos", command: "uptime", purpose: "x" }],
        ["run_many", { targets: ["local:oikos"], command: "uptime", purpose: "x" }],
        ["inspect_path", { targets: ["local:oikos"], path: "/etc" }],
        ["get_execution_status", { execution_id: "e1" }],
        ["get_execution_status", { execution_id: executionId }],
        ["set_goal", { goal: "something else entirely" }],
        ["propose_plan", { steps: [{ title: "reboot it", target: "local:oikos", risk: "destructive" }] }],
      ] as const) {
        const borrowed = await callTool(b, tool, args, id);
        assert.equal(borrowed.structured?.code, "session_not_yours", `${tool}: ${borrowed.text}`);
      }
      const rows = await store.db
        .selectFrom("sessions")
        .select(["principal", "platform"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(rows, { principal: "mcp:a", platform: "mcp" });
      const started_audit = await store.db
        .selectFrom("audit_log")
        .select("actor")
        .where("action", "=", "session_started")
        .where("session_id", "=", id)
        .executeTakeFirstOrThrow();
      assert.equal(started_audit.actor, "mcp:a");
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("a read token reads records, and cannot run anything (even read-only), start a session or write", async () => {
    const reader = await client(TOKENS.reader);
    try {
      const listed = await callTool(reader, "list_entities", {});
      assert.equal(listed.isError, false, listed.text);
      for (const [tool, args] of [
        ["run", { target: "local:oikos", command: "uptime", purpose: "x" }],
        ["run_many", { targets: ["local:oikos"], command: "uptime", purpose: "x" }],
        ["inspect_path", { targets: ["local:oikos"], path: "/etc" }],
        ["get_execution_status", { execution_id: "e1" }],
        ["start_session", { title: "let me in" }],
        ["update_entity_attributes", { slug: "local:oikos", attributes: { note: "mine now" } }],
      ] as const) {
        const refused = await callTool(reader, tool, args);
        assert.equal(refused.structured?.code, "read_only_principal", `${tool}: ${refused.text}`);
      }
    } finally {
      await reader.close();
    }
  });
});
