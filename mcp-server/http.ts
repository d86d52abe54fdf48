import type { IncomingMessage, ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Principal } from "../policy/principal.ts";
import { bearerChallenge, checkBearer, type McpToken } from "./bearer-auth.ts";
import type { McpLogger } from "./tool-deps.ts";

export interface McpHttpHandlerOptions {
  /** The named bearer tokens from config (`mcp.tokens`, `mcp.token`). Without one the endpoint serves nothing. */
  tokens: readonly McpToken[];
  /** Builds a fresh server with every tool registered for the token's principal; called once per request. */
  createServer: (principal: Principal) => McpServer | Promise<McpServer>;
  logger?: McpLogger;
}

export type McpHttpHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export const MISSING_TOKEN_MESSAGE =
  "The MCP endpoint is disabled because no bearer token is configured. Set OIKOS_MCP_TOKEN (config mcp.token, " +
  "at least 16 characters) or list named tokens under mcp.tokens, and restart oikos; local clients can use `oikos mcp --stdio` instead.";

/**
 * Streamable HTTP for `/mcp`, stateless: every POST gets its own McpServer and transport, no
 * mcp-session-id. All state that matters lives in Postgres, and the oikos session travels per call
 * (`_meta` or the x-oikos-session header), so MCP-level sessions would only add server memory to leak
 * and pin clients to one process. The cost: no server-initiated GET stream (405), which our tools do
 * not need; progress for a long call still streams on that call's own response.
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const tokens = options.tokens.filter((entry) => entry.token.trim());
  // Info, not a warning: a deployment that serves HTTP only for alerts and /metrics is not wrong.
  // A client that does call /mcp is answered with the message and what to set.
  if (tokens.length === 0) options.logger?.info({}, MISSING_TOKEN_MESSAGE);

  return async (req, res) => {
    if (tokens.length === 0) return sendJson(res, 503, jsonRpcError(-32001, MISSING_TOKEN_MESSAGE));
    const auth = checkBearer(req.headers, tokens);
    if (!auth.ok) {
      res.setHeader("WWW-Authenticate", bearerChallenge(auth.reason));
      const message =
        auth.reason === "missing"
          ? "Authorization: Bearer <token> is required (OIKOS_MCP_TOKEN or one of mcp.tokens)."
          : "The bearer token is not valid.";
      return sendJson(res, 401, jsonRpcError(-32001, message));
    }
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return sendJson(res, 405, jsonRpcError(-32000, "This endpoint is stateless: only POST is supported."));
    }

    // The SDK is loaded by the first request: a process nobody asks over MCP never holds it.
    const [server, { StreamableHTTPServerTransport }] = await Promise.all([
      options.createServer(auth.principal),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    ]);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      const authenticated = req as IncomingMessage & {
        auth?: { token: string; clientId: string; scopes: string[] };
      };
      authenticated.auth = { token: "(checked)", clientId: auth.principal.id, scopes: [auth.principal.role] };
      await transport.handleRequest(authenticated, res);
    } catch (error) {
      options.logger?.error({ err: error }, "MCP HTTP request failed");
      if (!res.headersSent) sendJson(res, 500, jsonRpcError(-32603, "Internal server error"));
      else res.end();
    }
  };
}

function jsonRpcError(code: number, message: string): object {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify(body));
}
