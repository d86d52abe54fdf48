import { after, before } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectInMemoryClient } from "../mcp-server/in-memory.ts";
import { createMcpServer } from "../mcp-server/server.ts";
import { createTestStore, type TestDialect, type TestStore } from "./store.ts";

export interface McpClientSuite {
  readonly store: TestStore;
  /** A client of the MCP server (default tool groups, actor "agent") over the in-memory transport. */
  readonly client: Client;
}

/**
 * A migrated store on `dialect`, filled by `seed`, and an MCP client on it for the enclosing
 * `describe`: set up in `before`, closed in `after`.
 */
export function mcpClientSuite(
  dialect: TestDialect,
  seed: (db: TestStore["db"]) => Promise<void> = async () => {},
): McpClientSuite {
  let store: TestStore | undefined;
  let client: Client | undefined;
  before(async () => {
    store = await createTestStore(dialect);
    await seed(store.db);
    client = await connectInMemoryClient(createMcpServer({ db: store.db, actor: "agent" }));
  });
  after(async () => {
    await client?.close();
    await store?.dispose();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("mcpClientSuite: read before the suite started");
    return value;
  };
  return {
    get store() {
      return started(store);
    },
    get client() {
      return started(client);
    },
  };
}
