import type { Capability } from "../app/compose-context.ts";
import type { Runtime } from "../app/runtime.ts";
import { runsAgent } from "../base/process-role.ts";
import { AGENT_PRINCIPAL } from "../policy/principal.ts";
import { agentMessage } from "../store/domain-events.ts";
import { type AgentDeps, DEFAULT_AGENT_OPTIONS } from "./agent-deps.ts";
import { continueUnreportedExecutions } from "./catch-up.ts";
import { registerIdleSweep } from "./idle-sweep.ts";
import { learnFromFeedback } from "./learn.ts";
import { createOpenAiModel } from "./openai-model.ts";
import { loadSoul } from "./prompt.ts";
import { registerAgentJobs } from "./register-jobs.ts";
import { resumeOwedTurns } from "./resume.ts";
import { McpToolGateway } from "./tool-gateway.ts";
import { reportUnreportedCompletions } from "./unreported-completions.ts";

/** The idle sweep runs this often (its own schedule: the 2-minute idle rule needs finer steps than the other sweeps). */
export const IDLE_SWEEP_EVERY_MS = 30_000;
const LEARN_EVERY_MS = 24 * 60 * 60_000;

/**
 * The agent: `agent-turn` and `continue` handlers over one MCP client shared by its sessions (in
 * process, the same server and gates outside clients get; each call names its session), the execution.finished → continue subscriber, the
 * idle sweep and the daily learning job. Without a model endpoint, turns answer how to configure one.
 */
export const agentCapability: Capability = {
  name: "agent",
  async start(runtime, ctx) {
    registerIdleSweep();
    if (!runsAgent(ctx.role, runtime.queue.kind)) return undefined;
    const { config, logger } = runtime;
    await runtime.queue.repeat(
      "sweep",
      { kind: "idle" },
      { everyMs: IDLE_SWEEP_EVERY_MS, key: "sweep-idle" },
    );
    if (!config.model.baseUrl) {
      registerWithoutModel(runtime);
      return undefined;
    }
    const execution = await ctx.runService();
    // The MCP SDK and the tools' modules are loaded by the first session's call, not at start.
    const gateway = new McpToolGateway({
      connect: async () => {
        const [{ connectInMemoryClient }, { createMcpServer }] = await Promise.all([
          import("../mcp-server/in-memory.ts"),
          import("../mcp-server/server.ts"),
        ]);
        return connectInMemoryClient(
          createMcpServer({
            db: runtime.db,
            principal: AGENT_PRINCIPAL,
            events: runtime.events,
            execution,
            logger,
          }),
          "oikos-agent",
        );
      },
    });
    const deps: AgentDeps = {
      db: runtime.db,
      events: runtime.events,
      model: createOpenAiModel({
        baseUrl: config.model.baseUrl,
        ...(config.model.apiKey ? { apiKey: config.model.apiKey } : {}),
        model: config.model.name,
        timeoutMs: config.model.timeoutMs,
      }),
      tools: gateway,
      soul: await loadSoul(),
      options: {
        ...DEFAULT_AGENT_OPTIONS,
        maxIterations: config.model.maxIterations,
        maxToolCallsPerTurn: config.model.maxToolCallsPerTurn,
        maxRefusalsPerTurn: config.model.maxRefusalsPerTurn,
      },
      logger,
    };
    const jobs = registerAgentJobs(runtime, deps, { concurrency: config.model.concurrentTurns });
    const caughtUp = await continueUnreportedExecutions({ db: runtime.db, queue: runtime.queue });
    if (caughtUp.length)
      logger.info({ executions: caughtUp }, "continuing executions that ended while no agent ran");
    const resumed = await resumeOwedTurns({ db: runtime.db, queue: runtime.queue });
    if (resumed.length) logger.info({ sessions: resumed }, "resuming turns a restart interrupted");
    await runtime.queue.repeat("learn", {}, { everyMs: LEARN_EVERY_MS, key: "learn-daily" });
    return {
      async started() {
        // The chat capability starts after this one: the summary must find its renderer subscribed.
        const told = await reportUnreportedCompletions({ db: runtime.db, events: runtime.events });
        if (told.length) logger.info({ sessions: told }, "reporting tasks a restart closed unannounced");
      },
      async stop() {
        jobs.unsubscribe();
        await jobs.settled();
        await gateway.close();
      },
    };
  },
};

function registerWithoutModel(runtime: Runtime): void {
  const text =
    "No model is configured, so I cannot work on tasks yet. Set OPENAI_BASE_URL, OPENAI_API_KEY and OIKOS_MODEL " +
    "(see README.md: A model) and restart; `!` commands work meanwhile.";
  runtime.queue.register("agent-turn", async (job) => {
    await runtime.events.publish(agentMessage({ sessionId: job.data.sessionId, text, final: true }));
  });
  runtime.queue.register("continue", async () => {});
  runtime.queue.register("learn", async () => {
    await learnFromFeedback(runtime.db);
  });
}
