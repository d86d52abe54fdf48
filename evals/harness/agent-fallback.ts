import { type AgentDeps, DEFAULT_AGENT_OPTIONS } from "../../agent/agent-deps.ts";
import { handleContinue, onExecutionFinished } from "../../agent/continuation.ts";
import { createOpenAiModel } from "../../agent/openai-model.ts";
import { loadSoul } from "../../agent/prompt.ts";
import { McpToolGateway } from "../../agent/tool-gateway.ts";
import { requestTurn } from "../../agent/turn-runner.ts";
import type { Runtime } from "../../app/runtime.ts";
import { runServiceFor } from "../../jobs/execution/capability.ts";
import { connectInMemoryClient } from "../../mcp-server/in-memory.ts";
import { createMcpServer } from "../../mcp-server/server.ts";

/**
 * The agent's queue handlers, for as long as app/compose.ts has no agent capability: agent-turn
 * and continue jobs, and execution.finished → continue. Built only from agent/ exports, exactly as
 * a capability would; the harness uses it only when nothing registered `agent-turn`.
 */
export async function startAgentFallback(runtime: Runtime): Promise<{ stop(): Promise<void> }> {
  const { config, db, events, queue, logger } = runtime;
  const execution = await runServiceFor(runtime);
  const gateway = new McpToolGateway({
    connect: () => connectInMemoryClient(createMcpServer({ db, actor: "agent", events, execution, logger })),
  });
  const deps: AgentDeps = {
    db,
    events,
    model: createOpenAiModel({
      baseUrl: config.model.baseUrl ?? "",
      apiKey: config.model.apiKey,
      model: config.model.name,
      timeoutMs: config.model.timeoutMs,
    }),
    tools: gateway,
    soul: await loadSoul(),
    options: { ...DEFAULT_AGENT_OPTIONS, maxIterations: config.model.maxIterations },
    logger,
  };
  queue.register("agent-turn", async (job) => {
    await requestTurn(deps, job.data.sessionId, job.data.reason as Parameters<typeof requestTurn>[2]);
  });
  queue.register("continue", async (job) => {
    await handleContinue(deps, job.data);
  });
  const unsubscribe = events.subscribe("execution.finished", async (event) => {
    await onExecutionFinished({ db, queue }, event);
  });
  return {
    async stop() {
      unsubscribe();
      await gateway.close();
    },
  };
}
