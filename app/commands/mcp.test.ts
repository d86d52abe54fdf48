import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { seedEmbeddedDataDir } from "../../test-support/embedded-data-dir.ts";
import { OIKOS_BIN } from "../../test-support/run-cli.ts";
import { run as runImport } from "./import.ts";

const INVENTORY = fileURLToPath(new URL("../../test-support/inventories/homelab.ini", import.meta.url));

// Embedded PGlite in a temp data dir; DATABASE_URL is cleared so both commands use the same database.
let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "oikos-mcp-cmd-"));
  await seedEmbeddedDataDir(dataDir);
  process.env.OIKOS_DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
});
after(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function captureIO() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => {
    out += chunk;
  });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  return { io: { stdin: new PassThrough(), stdout, stderr }, output: () => ({ out, err }) };
}

test("oikos import ansible reports created, then unchanged on re-import", async () => {
  const first = captureIO();
  assert.equal(await runImport(["ansible", INVENTORY], first.io), 0);
  assert.match(first.output().out, /entities: 9 created, 0 updated, 0 unchanged/);
  const second = captureIO();
  assert.equal(await runImport(["ansible", INVENTORY, "--json"], second.io), 0);
  const report = JSON.parse(second.output().out) as { entities: { unchanged: string[]; created: string[] } };
  assert.equal(report.entities.unchanged.length, 9);
  assert.deepEqual(report.entities.created, []);
  const usage = captureIO();
  assert.equal(await runImport(["puppet", INVENTORY], usage.io), 2);
});

test("oikos mcp --stdio serves the tools to an SDK client; logs stay off stdout", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OIKOS_BIN, "mcp", "--stdio"],
    env: { ...(process.env as Record<string, string>), OIKOS_DATA_DIR: dataDir },
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "0.0.0" });
  // A log line on stdout would reach the client as an unparseable message and land here.
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      "list_entities",
      "upsert_knowledge",
      "run",
      "run_many",
      "set_goal",
      "propose_plan",
      "complete_task",
    ]) {
      assert.ok(
        names.includes(name),
        `stdio serves ${name} like the agent's server (got ${names.join(", ")})`,
      );
    }
    const result = await client.callTool({ name: "list_entities", arguments: { type: "group" } });
    const [block] = result.content as { type: string; text: string }[];
    const listed = JSON.parse(block!.text) as { entities: { slug: string }[] };
    assert.deepEqual(
      listed.entities.map((e) => e.slug),
      ["group:production", "group:proxmox", "group:web"],
    );
    // stdio is its own principal: it starts its own sessions and owns no chat session.
    assert.ok(names.includes("start_session"), "an outside client starts its own session");
    const me = await client.callTool({ name: "whoami", arguments: {} });
    const whoami = JSON.parse((me.content as { text: string }[])[0]!.text) as { principal: unknown };
    assert.deepEqual(whoami.principal, { id: "stdio", role: "operator" });
    assert.deepEqual(protocolErrors, []);
  } finally {
    await client.close();
  }
});
