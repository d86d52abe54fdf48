import { createMcpServer } from "../../mcp-server/server.ts";
import { serveStdio } from "../../mcp-server/stdio.ts";
import { openStore } from "../../store/connect.ts";
import { migrateToLatest } from "../../store/migrate.ts";
import type { CommandIO } from "../command-module.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { storeOptions } from "../runtime.ts";

export const description = "serve the oikos MCP tools to a local MCP client over stdio (--stdio)";

export const usage = `
Usage: oikos mcp --stdio

Speaks MCP (JSON-RPC) on stdin/stdout for local clients such as an IDE or the MCP Inspector:
  npx @modelcontextprotocol/inspector --cli node app/cli.ts mcp --stdio --method tools/list
Logs go to stderr only. Remote clients use the Streamable HTTP endpoint /mcp of \`oikos start\`
(set OIKOS_MCP_TOKEN and OIKOS_HTTP_PORT).`;

export async function run(argv: string[], io: CommandIO): Promise<number> {
  if (!argv.includes("--stdio")) {
    io.stderr.write(`oikos mcp: only --stdio is served from this command.\n${usage}\n`);
    return 2;
  }
  const config = loadConfig();
  // stdout is the protocol stream: the logger writes to stderr (or the configured log file).
  const logger = createLogger(config, "oikos-mcp");
  const store = await openStore(storeOptions(config));
  try {
    const report = await migrateToLatest(store.db);
    if (report.applied.length > 0) logger.info({ applied: report.applied }, "database migrated");
    const server = createMcpServer({ db: store.db, actor: "mcp-stdio", logger });
    logger.info({ store: store.describe }, "MCP stdio server ready");
    await serveStdio(server, { stdin: io.stdin, stdout: io.stdout });
    return 0;
  } finally {
    await store.close();
  }
}
