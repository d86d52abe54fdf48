import { randomUUID } from "node:crypto";
import { type AgentDeps, type AgentOptions, DEFAULT_AGENT_OPTIONS } from "../../agent/agent-deps.ts";
import { createOpenAiModel } from "../../agent/openai-model.ts";
import { loadSoul } from "../../agent/prompt.ts";
import { McpToolGateway } from "../../agent/tool-gateway.ts";
import { InProcessEventBus } from "../../jobs/events/in-process.ts";
import type { EventBus } from "../../jobs/events/port.ts";
import type { DomainEvent } from "../../jobs/events/types.ts";
import { RunService } from "../../jobs/execution/run-service.ts";
import { InProcessQueue } from "../../jobs/queue/in-process.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import { connectInMemoryClient } from "../../mcp-server/in-memory.ts";
import { createMcpServer, type McpServerDeps, TOOL_GROUPS } from "../../mcp-server/server.ts";
import { registerExecutionTools } from "../../mcp-server/tools/execution.ts";
import { loadClassifier } from "../../policy/classify.ts";
import { AGENT_PRINCIPAL } from "../../policy/principal.ts";
import { appendMessage } from "../../store/messages.ts";
import { createSession } from "../../store/sessions.ts";
import { type ScriptedModelServer, type ScriptStep, startScriptedModel } from "../scripted-model/index.ts";
import { createTestStore, type TestDialect, type TestStore } from "../store.ts";

/**
 * The whole agent wired for a test or benchmark: a migrated store (PGlite, or Postgres when
 * DATABASE_URL is set), the real MCP server over an in-memory transport, the scripted model server
 * behind the openai SDK, and an in-process event bus whose events are recorded.
 */
export interface AgentHarness {
  store: TestStore;
  readonly model: ScriptedModelServer;
  events: EventBus;
  published: DomainEvent[];
  gateway: McpToolGateway;
  deps: AgentDeps;
  /** The queue `run` enqueues on (no execute worker: executions stay queued unless a test moves them). */
  queue: QueuePort;
  /** Replaces the scripted model with a fresh one playing `script` (tests sharing one store). */
  useScript(script: ScriptStep[]): Promise<ScriptedModelServer>;
  /** A new session bound to a fresh thread. */
  newSession(): Promise<string>;
  /** Appends an operator message (what the bot does before it enqueues a turn). */
  say(sessionId: string, text: string): Promise<void>;
  close(): Promise<void>;
}

export async function startAgentHarness(
  options: {
    script?: ScriptStep[];
    dialect?: TestDialect;
    agent?: Partial<AgentOptions>;
    clock?: () => Date;
    mcpDeps?: Partial<McpServerDeps>;
    /** The queue for `run` and sweeps; default an in-process queue nobody consumes. */
    queue?: QueuePort;
    /** The event bus; default in-process. Closed by close(). */
    events?: EventBus;
    /** How long `run` waits for a result (execution.waitMs); default 0: it answers at once. */
    runWaitMs?: number;
  } = {},
): Promise<AgentHarness> {
  const store = await createTestStore(options.dialect);
  let model = await startScriptedModel({ script: options.script ?? [] });
  const modelPort = (server: ScriptedModelServer) =>
    createOpenAiModel({ baseUrl: server.url, apiKey: "test", model: "scripted", timeoutMs: 10_000 });
  const events = options.events ?? new InProcessEventBus();
  const published: DomainEvent[] = [];
  events.subscribe("*", (event) => {
    published.push(event);
  });
  const queue = options.queue ?? new InProcessQueue();
  const execution = new RunService({
    db: store.db,
    events,
    queue,
    classifier: loadClassifier,
    waitMs: options.runWaitMs ?? 0,
    timeoutMs: 60_000,
    selfTargets: [],
    sshUser: "root",
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // The real `run` gate, registered here until the MCP server lists the execution group itself.
  const groups = (TOOL_GROUPS as readonly unknown[]).includes(registerExecutionTools)
    ? TOOL_GROUPS
    : [...TOOL_GROUPS, registerExecutionTools as (typeof TOOL_GROUPS)[number]];
  const gateway = new McpToolGateway({
    connect: () =>
      connectInMemoryClient(
        createMcpServer(
          {
            db: store.db,
            principal: AGENT_PRINCIPAL,
            events,
            clock: options.clock,
            execution,
            ...options.mcpDeps,
          },
          groups,
        ),
      ),
  });
  const deps: AgentDeps = {
    db: store.db,
    events,
    model: modelPort(model),
    tools: gateway,
    soul: await loadSoul(),
    options: { ...DEFAULT_AGENT_OPTIONS, retry: { attempts: 3, baseDelayMs: 1 }, ...options.agent },
    clock: options.clock,
    sleep: async () => {},
  };
  return {
    store,
    get model() {
      return model;
    },
    async useScript(script) {
      await model.close();
      model = await startScriptedModel({ script });
      deps.model = modelPort(model);
      published.length = 0;
      return model;
    },
    events,
    published,
    gateway,
    deps,
    queue,
    async newSession() {
      const session = await createSession(store.db, {
        platform: "test",
        room: "room",
        thread: randomUUID(),
        createdBy: "operator",
      });
      return session.id;
    },
    async say(sessionId, text) {
      await appendMessage(store.db, { sessionId, role: "user", content: text, author: "operator" });
    },
    async close() {
      await gateway.close();
      await model.close();
      await queue.close({ graceMs: 0 });
      await events.close();
      await store.dispose();
    },
  };
}
