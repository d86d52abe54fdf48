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

interface Bound {
  client: Promise<Client>;
  lastUsed: number;
}

export interface McpToolGatewayOptions {
  /** A new MCP client (e.g. connectInMemoryClient(createMcpServer(deps)), or one over HTTP). */
  connect: () => Promise<Client>;
  /** Clients unused this long are closed. Default 20 min. */
  idleMs?: number;
  /** Timeout of one tool call. Default 120 s (`run` itself returns early with an execution id). */
  callTimeoutMs?: number;
}

/**
 * One MCP client per oikos session. The tool list is fetched once per gateway and shared: tools/list
 * names no session, and every client of a gateway connects as the same principal, so each session's
 * list would be the same one (the server turning forty zod schemas into JSON Schema again, the client
 * compiling their output validators again — seconds of CPU for fifty sessions). The server still
 * checks every call's arguments and its result against the tool's schemas.
 * Every call carries the session id out of band in `_meta["oikos/session"]`, never as an argument.
 */
export class McpToolGateway implements ToolGateway {
  readonly #clients = new Map<string, Bound>();
  #tools: Promise<ToolSpec[]> | undefined;
  readonly #options: McpToolGatewayOptions;
  #listCalls = 0;

  constructor(options: McpToolGatewayOptions) {
    this.#options = options;
  }

  /** How many tools/list round-trips were made (the cache is per gateway). */
  get listCalls(): number {
    return this.#listCalls;
  }

  async tools(sessionId: string): Promise<ToolSpec[]> {
    const bound = this.#bind(sessionId);
    if (!this.#tools) {
      const listed = this.#list(bound.client);
      this.#tools = listed;
      // A failed list is not kept: the next turn asks again.
      listed.catch(() => {
        if (this.#tools === listed) this.#tools = undefined;
      });
    }
    return this.#tools;
  }

  async #list(pending: Promise<Client>): Promise<ToolSpec[]> {
    const client = await pending;
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
    const client = await this.#bind(sessionId).client;
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

  /** Closes clients idle longer than idleMs; call it from a timer. */
  async evictIdle(now = Date.now()): Promise<number> {
    let evicted = 0;
    for (const [sessionId, bound] of this.#clients) {
      if (now - bound.lastUsed < (this.#options.idleMs ?? 20 * 60_000)) continue;
      this.#clients.delete(sessionId);
      evicted += 1;
      await (await bound.client).close().catch(() => {});
    }
    return evicted;
  }

  async close(): Promise<void> {
    const all = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(all.map(async (bound) => (await bound.client).close().catch(() => {})));
  }

  #bind(sessionId: string): Bound {
    let bound = this.#clients.get(sessionId);
    if (!bound) {
      const client = this.#options.connect();
      bound = { client, lastUsed: Date.now() };
      this.#clients.set(sessionId, bound);
      client.catch(() => this.#clients.delete(sessionId));
    }
    bound.lastUsed = Date.now();
    return bound;
  }
}
