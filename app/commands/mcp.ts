import { createMcpServer } from "../../mcp-server/server.ts";
import { serveStdio } from "../../mcp-server/stdio.ts";
import { STDIO_PRINCIPAL } from "../../policy/principal.ts";
import { commandArgs } from "../command-args.ts";
import type { CommandIO } from "../command-module.ts";
import { compose } from "../compose.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { openRuntime } from "../runtime.ts";

export const description = "serve the oikos MCP tools to a local MCP client over stdio (--stdio)";

export const usage = `
Usage: oikos mcp --stdio

Speaks MCP (JSON-RPC) on stdin/stdout for local clients such as an IDE or the MCP Inspector:
  npx @modelcontextprotocol/inspector --cli node bin/oikos.js mcp --stdio --method tools/list
Serves every tool the agent has (inventory, knowledge, execution, task), with the same gates; task
and execution tools need an oikos session id in the request _meta ("oikos/session"). On the embedded
database it runs the execute workers itself, so do not point it at the data folder of a running
\`oikos start\`. Logs go to stderr only. Remote clients use the Streamable HTTP endpoint /mcp of \`oikos start\`
(set OIKOS_MCP_TOKEN and OIKOS_HTTP_PORT).`;

export async function run(argv: string[], io: CommandIO): Promise<number> {
  const args = commandArgs({ name: "mcp", usage, io }, argv, { options: { stdio: { type: "boolean" } } });
  if (!args) return 2;
  if (!args.values.stdio) {
    io.stderr.write(`oikos mcp: only --stdio is served from this command.\n${usage}\n`);
    return 2;
  }
  const config = loadConfig();
  // stdout is the protocol stream: the logger writes to stderr (or the configured log file).
  const logger = createLogger(config, "oikos-mcp");
  const runtime = await openRuntime(config, { logger });
  const composition = await compose(runtime, "mcp");
  try {
    await runtime.queue.start();
    const server = createMcpServer({
      db: runtime.db,
      principal: STDIO_PRINCIPAL,
      events: runtime.events,
      execution: await composition.ctx.runService(),
      logger,
    });
    logger.info({ store: runtime.store.describe, queue: runtime.queue.kind }, "MCP stdio server ready");
    await serveStdio(server, { stdin: io.stdin, stdout: io.stdout });
    return 0;
  } finally {
    await composition.stop();
    await runtime.close();
  }
}
