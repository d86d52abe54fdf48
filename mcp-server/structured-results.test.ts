import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InProcessEventBus } from "../jobs/events/in-process.ts";
import { startExecuteWorker } from "../jobs/execution/execute-worker.ts";
import { RunService } from "../jobs/execution/run-service.ts";
import { InProcessQueue } from "../jobs/queue/in-process.ts";
import { execLocal } from "../jobs/ssh/transport-local.ts";
import { loadClassifier } from "../policy/classify.ts";
import { REFUSAL_CODES, REFUSALS } from "../policy/refusals.ts";
import { outcomeEndsTurn, TOOL_OUTCOME_KINDS } from "../policy/tool-outcome.ts";
import { upsertEntities } from "../store/entities.ts";
import { seedEmbeddedDataDir } from "../test-support/embedded-data-dir.ts";
import { OIKOS_BIN } from "../test-support/run-cli.ts";
import { createTestStore, defaultDialect, type TestStore } from "../test-support/store.ts";
import { createMcpHttpHandler } from "./http.ts";
import { createMcpServer } from "./server.ts";
import { SESSION_HEADER } from "./session-context.ts";

const TOKEN = "test-token-structured-0123456789";

/** The tools whose results are typed (issue 11): each declares an outputSchema. */
const TYPED_TOOLS = [
  "run",
  "get_execution_status",
  "cancel_execution",
  "run_many",
  "inspect_path",
  "set_goal",
  "propose_plan",
  "update_plan_step",
  "ask_operator",
  "complete_task",
];

interface CallResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

function textOf(result: CallResult): string {
  return result.content.map((block) => block.text ?? "").join("\n");
}

/** What a reader of the text alone would conclude: the refusal code, or the JSON's kind. */
function kindAndCodeFromText(text: string): { kind: string; code?: string } {
  const refused = /^Refused \(([a-z_]+)\): /.exec(text);
  if (refused) return { kind: "refused", code: refused[1]! };
  return { kind: String((JSON.parse(text) as { kind: unknown }).kind) };
}

function assertTyped(result: CallResult): Record<string, unknown> {
  const structured = result.structuredContent;
  assert.ok(structured, `structuredContent missing: ${textOf(result)}`);
  const fromText = kindAndCodeFromText(textOf(result));
  assert.equal(structured.kind, fromText.kind);
  if (fromText.code) assert.equal(structured.code, fromText.code);
  assert.equal(result.isError === true, structured.kind === "refused");
  return structured;
}

async function assertListsOutputSchemas(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  for (const name of TYPED_TOOLS) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `${name} is listed`);
    const schema = tool.outputSchema as {
      type?: string;
      properties?: { kind?: { enum?: string[] } };
      oneOf?: unknown[];
    };
    assert.equal(schema?.type, "object", `${name} declares an object outputSchema`);
    const kinds = schema.properties?.kind?.enum ?? [];
    assert.ok(kinds.includes("refused"), `${name}: every typed tool can refuse`);
    for (const kind of kinds)
      assert.ok(Object.hasOwn(TOOL_OUTCOME_KINDS, kind), `${name}: ${kind} is a known kind`);
    assert.equal(schema.oneOf?.length, kinds.length, `${name}: one exact variant per kind`);
    const refusedVariant = JSON.stringify(schema.oneOf);
    for (const code of ["no_session", "plan_required", "approval_pending"]) {
      assert.ok(refusedVariant.includes(`"${code}"`), `${name}: the refusal variant lists ${code}`);
    }
  }
  assert.equal(
    REFUSAL_CODES.every((code) =>
      JSON.stringify(tools.find((t) => t.name === "run")?.outputSchema).includes(`"${code}"`),
    ),
    true,
    "run's outputSchema names every refusal code",
  );
}

describe("typed tool results over real Streamable HTTP", () => {
  let store: TestStore;
  let server: Server;
  let url: URL;
  let queue: InProcessQueue;
  let events: InProcessEventBus;

  before(async () => {
    store = await createTestStore(defaultDialect());
    await upsertEntities(
      store.db,
      [{ slug: "local:oikos", type: "local", name: "oikos", transport: "local" }],
      { by: "test" },
    );
    for (const [id, plan] of [
      ["s-plain", null],
      ["s-approved", "approved"],
    ] as const) {
      await store.db
        .insertInto("sessions")
        .values({
          id,
          platform: "test",
          room: "r",
          thread: id,
          created_by: "op",
          principal: "mcp:ci",
          ...(plan ? { plan_generation: 1 } : {}),
        })
        .execute();
      if (plan)
        await store.db.insertInto("plans").values({ session_id: id, generation: 1, status: plan }).execute();
    }
    queue = new InProcessQueue();
    events = new InProcessEventBus();
    startExecuteWorker({
      db: store.db,
      events,
      queue,
      runner: { exec: (_target, command, options) => execLocal(command, options) },
      sshUser: "root",
    });
    await queue.start();
    const execution = new RunService({
      db: store.db,
      events,
      queue,
      classifier: loadClassifier,
      waitMs: 10_000,
      timeoutMs: 30_000,
      selfTargets: [],
      sshUser: "root",
    });
    const handler = createMcpHttpHandler({
      tokens: [{ name: "ci", token: TOKEN, role: "operator" }],
      createServer: (principal) => createMcpServer({ db: store.db, principal, events, execution }),
    });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await queue.close({ graceMs: 1_000 });
    await events.close();
    await store.dispose();
  });

  async function connect(session?: string): Promise<Client> {
    const client = new Client({ name: "structured-test", version: "0.0.0" });
    const headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` };
    if (session) headers[SESSION_HEADER] = session;
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    // Listing caches the output schemas: from here on the SDK client validates every result.
    await assertListsOutputSchemas(client);
    return client;
  }

  test("tools/list declares an outputSchema for the run, execution and task tools", async () => {
    const client = await connect();
    await client.close();
  });

  test("an outside client's session refusals tell a person what to do, not the agent's wiring fault", async () => {
    const outside = await connect();
    const unknown = await connect("s-never-created");
    try {
      const args = { target: "local:oikos", command: "uptime", purpose: "test" };
      for (const [client, code] of [
        [outside, "no_session"],
        [unknown, "unknown_session"],
      ] as const) {
        const result = (await client.callTool({ name: "run", arguments: args })) as CallResult;
        const structured = assertTyped(result);
        assert.equal(structured.code, code);
        assert.equal(structured.next_step, REFUSALS[code].forClient);
        assert.match(textOf(result), /start_session/);
        assert.match(textOf(result), /--tool-metadata oikos\/session=<id>/);
        assert.doesNotMatch(textOf(result), /wiring fault/);
      }
    } finally {
      await Promise.all([outside.close(), unknown.close()]);
    }
  });

  test("run's structuredContent has the kind and code its text states, for every outcome", async () => {
    const outside = await connect();
    const plain = await connect("s-plain");
    const approved = await connect("s-approved");
    try {
      const args = (command: string) => ({ target: "local:oikos", command, purpose: "test" });
      const noSession = assertTyped(
        (await outside.callTool({ name: "run", arguments: args("uptime") })) as CallResult,
      );
      assert.equal(noSession.code, "no_session");
      const finished = assertTyped(
        (await plain.callTool({ name: "run", arguments: args("echo typed") })) as CallResult,
      );
      assert.equal(finished.kind, "finished");
      assert.equal(finished.status, "completed");
      assert.match(String(finished.stdout), /typed/);
      const planFirst = assertTyped(
        (await plain.callTool({ name: "run", arguments: args("systemctl restart nginx") })) as CallResult,
      );
      assert.equal(planFirst.code, "plan_required");
      const unknown = assertTyped(
        (await plain.callTool({
          name: "run",
          arguments: { ...args("uptime"), target: "local:oikoss" },
        })) as CallResult,
      );
      assert.equal(unknown.code, "unknown_target");
      const asked = assertTyped(
        (await approved.callTool({ name: "run", arguments: args("systemctl restart nginx") })) as CallResult,
      );
      assert.equal(asked.kind, "approval_requested");
      const second = assertTyped(
        (await approved.callTool({ name: "run", arguments: args("systemctl restart sshd") })) as CallResult,
      );
      assert.equal(second.code, "approval_pending");
      const status = assertTyped(
        (await approved.callTool({
          name: "get_execution_status",
          arguments: { execution_id: String(asked.execution_id) },
        })) as CallResult,
      );
      assert.equal(status.kind, "pending");
      assert.equal(status.status, "pending_approval");
      const cancelled = assertTyped(
        (await approved.callTool({
          name: "cancel_execution",
          arguments: { execution_id: String(asked.execution_id) },
        })) as CallResult,
      );
      assert.equal(cancelled.kind, "cancelled");
      const many = assertTyped(
        (await plain.callTool({
          name: "run_many",
          arguments: { targets: ["local:oikos", "host:nowhere"], command: "echo many", purpose: "fleet" },
        })) as CallResult,
      );
      assert.equal(many.kind, "fan_out");
      const results = many.results as { target: string; kind: string; code?: string }[];
      assert.deepEqual(
        results.map((r) => [r.target, r.kind, r.code]),
        [
          ["local:oikos", "finished", undefined],
          ["host:nowhere", "refused", "unknown_target"],
        ],
      );
      // Every target refused: nothing ran, and the result ends the agent's turn with why per target.
      const none = assertTyped(
        (await plain.callTool({
          name: "run_many",
          arguments: { targets: ["host:nowhere", "host:gone"], command: "echo many", purpose: "fleet" },
        })) as CallResult,
      );
      assert.equal(none.kind, "fan_out_refused");
      assert.deepEqual(
        (none.results as { target: string; code: string }[]).map((r) => [r.target, r.code]),
        [
          ["host:nowhere", "unknown_target"],
          ["host:gone", "unknown_target"],
        ],
      );
      assert.match(String(none.message), /host:nowhere: unknown_target/);
      assert.equal(outcomeEndsTurn(none), true);
      const inspect = assertTyped(
        (await plain.callTool({
          name: "inspect_path",
          arguments: { path: "/tmp", targets: ["local:oikos"] },
        })) as CallResult,
      );
      assert.equal(inspect.kind, "fan_out");
    } finally {
      await Promise.all([outside.close(), plain.close(), approved.close()]);
    }
  });
});

describe("typed tool results over stdio (oikos mcp --stdio)", () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "oikos-structured-"));
    await seedEmbeddedDataDir(dataDir);
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test("tools/list shows the outputSchemas; run's structured refusal matches its text", async () => {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      OIKOS_DATA_DIR: dataDir,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const client = new Client({ name: "structured-stdio", version: "0.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [OIKOS_BIN, "mcp", "--stdio"],
        env,
        stderr: "pipe",
      }),
    );
    try {
      await assertListsOutputSchemas(client);
      const result = (await client.callTool({
        name: "run",
        arguments: { target: "local:oikos", command: "uptime", purpose: "stdio check" },
      })) as CallResult;
      const structured = assertTyped(result);
      assert.equal(structured.code, "no_session");
      // A person at an outside client reads what to do, not the agent's "wiring fault".
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      assert.match(
        text,
        /^Refused \(no_session\): this tool call carries no oikos session id.*start_session/,
      );
      assert.match(text, /--tool-metadata oikos\/session=<id>/);
      assert.equal(structured.next_step, REFUSALS.no_session.forClient);
      assert.doesNotMatch(text, /wiring fault/);
      const status = (await client.callTool({
        name: "get_execution_status",
        arguments: { execution_id: "ex-none" },
      })) as CallResult;
      assert.equal(status.structuredContent?.code, "no_session");
    } finally {
      await client.close();
    }
  });
});
