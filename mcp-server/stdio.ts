import type { Readable, Writable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/**
 * Serves `server` over stdio until the client closes stdin. stdout carries only JSON-RPC: anything
 * else written there (a log line, a banner) corrupts the stream, so logs must go to stderr.
 */
export async function serveStdio(
  server: McpServer,
  streams: { stdin: Readable; stdout: Writable } = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    streams.stdin.once("end", resolve);
    streams.stdin.once("close", resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
