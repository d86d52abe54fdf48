import type { ProcessRole } from "../base/process-role.ts";
import type { AdapterStatusBoard } from "../bot/adapter-status.ts";
import type { CommandRegistry, Roles } from "../bot/core/bot-commands.ts";
import type { RunService } from "../jobs/execution/run-service.ts";
import type { CommandIO } from "./command-module.ts";
import type { HttpHandler } from "./http-server.ts";
import type { Metrics } from "./metrics.ts";
import type { Runtime } from "./runtime.ts";

// The contract between the composition root (app/compose.ts) and each layer's capability.ts: a
// leaf of types, so a capability never imports the module that imports it.

/** What a capability may add to the process while it starts, and what the root hands it. */
export interface ComposeContext {
  role: ProcessRole;
  commands: CommandRegistry;
  httpRoutes: Record<string, HttpHandler>;
  metrics: Metrics;
  roles: Roles;
  /** The configured chat platforms and where each stands (for `!status`, `/metrics`, the log). */
  chatAdapters: AdapterStatusBoard;
  /** This process serves the terminal chat on stdin/stdout. */
  terminalAttached: boolean;
  /** Runs the terminal chat on these streams until input ends; set by the chat capability (bot/). */
  runTerminal?: (io: Pick<CommandIO, "stdin" | "stdout">) => Promise<void>;
  /**
   * The gated run service of this process, built by the root on first use (it loads the
   * classifier) and shared by everything that serves the MCP tools.
   */
  runService(): Promise<RunService>;
}

export interface CapabilityHandle {
  /** First step of a stop: take no more outside work (chat events); called before the queue drains. */
  quiesce?(): Promise<void>;
  /**
   * Once every capability has started and the queue consumes: start-up work whose events others
   * subscribe to (a capability started earlier would publish them to nobody).
   */
  started?(): Promise<void>;
  stop(): Promise<void>;
}

export interface Capability {
  name: string;
  start(runtime: Runtime, ctx: ComposeContext): Promise<CapabilityHandle | undefined>;
}
