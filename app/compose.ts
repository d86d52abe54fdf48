import { agentCapability } from "../agent/capability.ts";
import type { ProcessRole } from "../base/process-role.ts";
import { AdapterStatusBoard } from "../bot/adapter-status.ts";
import { chatCapability } from "../bot/capability.ts";
import { CommandRegistry, type Roles } from "../bot/core/bot-commands.ts";
import { helpCommand } from "../bot/core/help-command.ts";
import { intakeCapability } from "../intake/capability.ts";
import { createRunService, executionCapability } from "../jobs/execution/capability.ts";
import { mcpCapability } from "../mcp-server/capability.ts";
import type { Capability, CapabilityHandle, ComposeContext } from "./compose-context.ts";
import { createMetrics } from "./metrics.ts";
import { registerQualityMetrics } from "./quality-metrics.ts";
import type { Runtime } from "./runtime.ts";
import { statusCommand } from "./status-command.ts";

export type { ProcessRole } from "../base/process-role.ts";

/**
 * The capabilities in start order. Each one registers its queue handlers, event subscribers,
 * chat commands and HTTP routes; `stop` runs in reverse order on shutdown.
 */
const CAPABILITIES: Capability[] = [
  executionCapability,
  mcpCapability,
  agentCapability,
  chatCapability,
  intakeCapability,
];

export interface Composition {
  ctx: ComposeContext;
  /** Stops taking outside work; the queue and the capabilities keep running until stop. */
  quiesce(): Promise<void>;
  /** Call once the queue consumes: each capability's start-up work that publishes events. */
  started(): Promise<void>;
  stop(): Promise<void>;
}

export async function compose(runtime: Runtime, role: ProcessRole): Promise<Composition> {
  const { config } = runtime;
  const roles: Roles = {
    isOperator: (user) => config.chat.operators.includes(user) || config.chat.admins.includes(user),
    isAdmin: (user) => config.chat.admins.includes(user),
  };
  let runService: ReturnType<ComposeContext["runService"]> | undefined;
  const ctx: ComposeContext = {
    role,
    commands: new CommandRegistry(),
    httpRoutes: {},
    metrics: createMetrics(),
    roles,
    chatAdapters: new AdapterStatusBoard(),
    terminalAttached: false,
    runService: () => {
      runService ??= createRunService(runtime);
      return runService;
    },
  };
  registerQualityMetrics(ctx.metrics.registry, runtime.db);
  ctx.chatAdapters.onChange((platform, status) => ctx.metrics.chatAdapterState(platform, status.state));
  ctx.commands.add(helpCommand(ctx.commands));
  ctx.commands.add(statusCommand(runtime, ctx));
  const started: ({ name: string } & CapabilityHandle)[] = [];
  try {
    for (const capability of CAPABILITIES) {
      const handle = await capability.start(runtime, ctx);
      if (handle) started.push({ name: capability.name, ...bound(handle) });
    }
  } catch (error) {
    await stopAll(started, runtime);
    await closeRunService(runService, runtime);
    throw error;
  }
  return {
    ctx,
    quiesce: async () => {
      for (const item of [...started].reverse()) {
        try {
          await item.quiesce?.();
        } catch (error) {
          runtime.logger.warn({ err: error, capability: item.name }, "capability failed to quiesce");
        }
      }
    },
    started: async () => {
      for (const item of started) await item.started?.();
    },
    stop: async () => {
      await stopAll(started, runtime);
      await closeRunService(runService, runtime);
    },
  };
}

/** The run service, if this process built one, releases what it holds (the previews' SSH pool). */
async function closeRunService(
  runService: ReturnType<ComposeContext["runService"]> | undefined,
  runtime: Runtime,
): Promise<void> {
  if (!runService) return;
  try {
    await (await runService).close();
  } catch (error) {
    runtime.logger.error({ err: error }, "the run service failed to close cleanly");
  }
}

function bound(handle: CapabilityHandle): CapabilityHandle {
  return {
    stop: () => handle.stop(),
    ...(handle.quiesce ? { quiesce: () => handle.quiesce!() } : {}),
    ...(handle.started ? { started: () => handle.started!() } : {}),
  };
}

async function stopAll(started: { name: string; stop(): Promise<void> }[], runtime: Runtime): Promise<void> {
  for (const item of started.reverse()) {
    try {
      await item.stop();
    } catch (error) {
      runtime.logger.error({ err: error, capability: item.name }, "capability failed to stop cleanly");
    }
  }
}
