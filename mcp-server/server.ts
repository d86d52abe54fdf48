import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolDeps } from "./tool-deps.ts";
import { type ExecutionToolDeps, registerExecutionTools } from "./tools/execution.ts";
import { registerInventoryTools } from "./tools/inventory.ts";
import { registerKnowledgeTools } from "./tools/knowledge.ts";
import { registerTaskTools, type TaskToolDeps } from "./tools/task.ts";

export const SERVER_INFO = { name: "oikos", version: "0.1.0" } as const;

/** One tool group: a module `mcp-server/tools/<group>.ts` exporting `register<Group>Tools(server, deps)`. */
export type ToolGroup<Deps extends ToolDeps = ToolDeps> = (server: McpServer, deps: Deps) => void;

/**
 * Every tool group the server exposes, in tools/list order. A new group (execution, task) adds its
 * register function here and widens `McpServerDeps` with what it needs.
 */
export const TOOL_GROUPS: readonly ToolGroup<McpServerDeps>[] = [
  registerInventoryTools,
  registerKnowledgeTools,
  registerExecutionTools,
  registerTaskTools,
];

export type McpServerDeps = ToolDeps & TaskToolDeps & ExecutionToolDeps;

/** A fresh McpServer with every tool group registered; cheap enough to build per HTTP request. */
export function createMcpServer(
  deps: McpServerDeps,
  groups: readonly ToolGroup<McpServerDeps>[] = TOOL_GROUPS,
): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      "oikos knowledge graph and operations tools. Entities are addressed by slug (type:name, e.g. host:hubris). " +
      "Look before you act: list_entities / get_entity / search_knowledge, and write back what you learn " +
      "(update_entity_attributes, upsert_knowledge).",
  });
  for (const register of groups) register(server, deps);
  return server;
}
