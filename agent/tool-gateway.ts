import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SESSION_META_KEY } from "../policy/principal.ts";
import type { ToolSpec } from "./model-port.ts";

export interface ToolCallResult {
  isError: boolean;
  /** What the model reads (and the transcript stores). */
  text: string;
  /** The tool's MCP `structuredContent` (`kind`, refusal `code` …): what the agent loop decides on. */
  structured?: unknown;
}

/** Where the agent's tool calls go: tools listed and called for one oikos session. */
export interface ToolGateway {
  tools(sessionId: string): Promise<ToolSpec[]>;
  call(sessionId: string, name: string, args: Record<string, unknown>): Promise<ToolCallResult>;
  close(): Promise<void>;
}

export interface McpToolGatewayOptions {
  /** A new MCP client (e.g. connectInMemoryClient(createMcpServer(deps)), or one over HTTP). */
  connect: () => Promise<Client>;
  /** Timeout of one tool call. Default 120 s (`run` itself returns early with an execution id). */
  callTimeoutMs?: number;
}

/**
 * One MCP client per gateway, shared by every oikos session: each call carries its session id out of
 * band in `_meta["oikos/session"]` (never as an argument), and every session of a gateway connects as
 * the same principal, so nothing of a session lives in the connection. The server checks each call
 * (session known, owned by the principal, every gate) as it comes. A client per session meant an
 * McpServer per session: forty tools registered, their zod schemas converted and an ajv instance
 * built again for each of the fifty sessions of the bench (≈ 0.4 s CPU), and as many idle clients.
 * The tool list is fetched once too: tools/list names no session.
 */
export class McpToolGateway implements ToolGateway {
  #client: Promise<Client> | undefined;
  #tools: Promise<ToolSpec[]> | undefined;
  readonly #options: McpToolGatewayOptions;
  #listCalls = 0;
  #connects = 0;

  constructor(options: McpToolGatewayOptions) {
    this.#options = options;
  }

  /** How many tools/list round-trips were made (the cache is per gateway). */
  get listCalls(): number {
    return this.#listCalls;
  }

  /** How many MCP clients (and servers behind them) this gateway connected. */
  get connects(): number {
    return this.#connects;
  }

  async tools(_sessionId: string): Promise<ToolSpec[]> {
    if (!this.#tools) {
      const listed = this.#list();
      this.#tools = listed;
      // A failed list is not kept: the next turn asks again.
      listed.catch(() => {
        if (this.#tools === listed) this.#tools = undefined;
      });
    }
    return this.#tools;
  }

  async #list(): Promise<ToolSpec[]> {
    const client = await this.#connected();
    this.#listCalls += 1;
    const { tools } = await client.listTools();
    return tools.map((tool) => ({
      type: "function" as const,
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.inputSchema as Record<string, unknown>,
      },
    }));
  }

  async call(sessionId: string, name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    const client = await this.#connected();
    try {
      const result = await client.callTool(
        { name, arguments: args, _meta: { [SESSION_META_KEY]: sessionId } },
        undefined,
        { timeout: this.#options.callTimeoutMs ?? 120_000 },
      );
      const content = (result.content ?? []) as { type: string; text?: string }[];
      return {
        isError: result.isError === true,
        text: content.map((block) => block.text ?? "").join("\n"),
        ...(result.structuredContent === undefined ? {} : { structured: result.structuredContent }),
      };
    } catch (error) {
      // Protocol errors (unknown tool, arguments failing the schema) go back to the model as data.
      return {
        isError: true,
        text: `Tool ${name} could not be called: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#tools = undefined;
    if (client) await (await client.catch(() => undefined))?.close().catch(() => {});
  }

  #connected(): Promise<Client> {
    if (!this.#client) {
      const client = this.#options.connect();
      this.#connects += 1;
      this.#client = client;
      // A failed connect, or a connection that closed, is not kept: the next call connects again.
      const forget = () => {
        if (this.#client === client) this.#client = undefined;
      };
      client.then((connected) => {
        connected.onclose = forget;
      }, forget);
    }
    return this.#client;
  }
}
