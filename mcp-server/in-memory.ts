import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CachedSchemaValidator } from "./cached-schema-validator.ts";

/** One per process: every in-process client validates tool results with the same compiled schemas. */
let validator: CachedSchemaValidator | undefined;

/**
 * A client connected to `server` inside this process (the embedded agent, and tests). Pass the
 * session per call as `_meta: { "oikos/session": id }`. Closing the client closes both ends.
 */
export async function connectInMemoryClient(server: McpServer, name = "oikos-in-process"): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  validator ??= new CachedSchemaValidator();
  const client = new Client({ name, version: "0.1.0" }, { jsonSchemaValidator: validator });
  await client.connect(clientTransport);
  return client;
}
