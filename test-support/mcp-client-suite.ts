import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectInMemoryClient } from "../mcp-server/in-memory.ts";
import { createMcpServer } from "../mcp-server/server.ts";
import { AGENT_PRINCIPAL } from "../policy/principal.ts";
import { perSuite, releasingOnFailure } from "./per-suite.ts";
import { createTestStore, type TestDialect, type TestStore } from "./store.ts";

export interface McpClientSuite {
  readonly store: TestStore;
  /** A client of the MCP server (default tool groups, principal agent) over the in-memory transport. */
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
  const started = perSuite(
    async () =>
      releasingOnFailure(
        await createTestStore(dialect),
        (store) => store.dispose(),
        async (store) => {
          await seed(store.db);
          const client = await connectInMemoryClient(
            createMcpServer({ db: store.db, principal: AGENT_PRINCIPAL }),
          );
          return { store, client };
        },
      ),
    async ({ store, client }) => {
      await client.close();
      await store.dispose();
    },
  );
  return {
    get store() {
      return started().store;
    },
    get client() {
      return started().client;
    },
  };
}
