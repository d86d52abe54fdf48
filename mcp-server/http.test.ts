import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { upsertEntities } from "../store/entities.ts";
import { callTool } from "../test-support/mcp-server/call-tool.ts";
import { createTestStore, defaultDialect, type TestStore } from "../test-support/store.ts";
import { createMcpHttpHandler, type McpHttpHandler } from "./http.ts";
import { createMcpServer } from "./server.ts";

const TOKEN = "test-token-0123456789abcdef";

async function listen(handler: McpHttpHandler): Promise<{ server: Server; url: URL }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/mcp")) void handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

async function connect(url: URL, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "http-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

describe("MCP over real Streamable HTTP", () => {
  let store: TestStore;
  let http: { server: Server; url: URL };

  before(async () => {
    store = await createTestStore(defaultDialect());
    await upsertEntities(store.db, [{ slug: "host:hubris", type: "host", name: "hubris" }], { by: "test" });
    http = await listen(
      createMcpHttpHandler({
        tokens: [{ name: "http", token: TOKEN, role: "operator" }],
        createServer: (principal) => createMcpServer({ db: store.db, principal }),
      }),
    );
  });
  after(async () => {
    http.server.closeAllConnections();
    await new Promise((resolve) => http.server.close(resolve));
    await store.dispose();
  });

  test("with the token: tools/list and list_entities", async () => {
    const client = await connect(http.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "list_entities"));
      const listed = await callTool(client, "list_entities", {});
      assert.deepEqual(listed.json, {
        entities: [{ slug: "host:hubris", type: "host", name: "hubris", state: "active", transport: "ssh" }],
      });
    } finally {
      await client.close();
    }
  });

  test("the x-oikos-session header carries the session out of band", async () => {
    const client = await connect(http.url, { Authorization: `Bearer ${TOKEN}`, "x-oikos-session": "s-http" });
    try {
      const me = (await callTool(client, "whoami", {})).json as {
        session: { id: string };
        principal: { id: string; role: string };
      };
      assert.equal(me.session.id, "s-http");
      assert.deepEqual(me.principal, { id: "mcp:http", role: "operator" });
    } finally {
      await client.close();
    }
  });

  test("without or with a wrong token: 401 with a WWW-Authenticate challenge", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const missing = await fetch(http.url, { method: "POST", headers, body });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="oikos-mcp"');
    const wrong = await fetch(http.url, {
      method: "POST",
      headers: { ...headers, Authorization: "Bearer not-the-token" },
      body,
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
    await assert.rejects(connect(http.url, {}), (error: { code?: number }) => error.code === 401);
  });

  test("stateless: GET is refused with 405", async () => {
    const response = await fetch(http.url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get("allow"), "POST");
  });

  test("no token configured: the endpoint refuses and says how to enable it", async () => {
    const disabled = await listen(
      createMcpHttpHandler({
        tokens: [],
        createServer: (principal) => createMcpServer({ db: store.db, principal }),
      }),
    );
    try {
      const response = await fetch(disabled.url, { method: "POST", body: "{}" });
      assert.equal(response.status, 503);
      assert.match(await response.text(), /Set OIKOS_MCP_TOKEN/);
    } finally {
      disabled.server.closeAllConnections();
      await new Promise((resolve) => disabled.server.close(resolve));
    }
  });
});
