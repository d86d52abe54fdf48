import { flushCompileCache } from "node:module";
import { pingDatabase } from "../store/kv.ts";
import type { CommandIO } from "./command-module.ts";
import { compose, type ProcessRole } from "./compose.ts";
import { loadConfig } from "./config.ts";
import { type RunningHttpServer, startHttpServer } from "./http-server.ts";
import { openRuntime } from "./runtime.ts";
import { terminalLogger } from "./terminal-log.ts";

export interface ServeOptions {
  role: ProcessRole;
  /** Attach the terminal chat to stdin/stdout. */
  terminal: boolean;
}

/**
 * Starts oikos and runs until the terminal chat ends (end of input) or a signal arrives, then
 * shuts down in order: chat, HTTP, capabilities, queue (running jobs finish or are recorded
 * interrupted), event bus, database.
 */
export async function serve(io: CommandIO, options: ServeOptions): Promise<number> {
  const config = loadConfig();
  // With the terminal chat attached, JSON logs would interleave with the conversation.
  const terminalLog = options.terminal ? terminalLogger(config, io.stderr) : undefined;
  if (terminalLog) io.stderr.write(`(logs: ${terminalLog.file}; warnings and errors also show here)\n`);
  const runtime = await openRuntime(config, terminalLog ? { logger: terminalLog.logger } : {});
  let http: RunningHttpServer | undefined;
  const composition = await compose(runtime, options.role);
  composition.ctx.terminalAttached = options.terminal;
  try {
    if (config.http.enabled) {
      http = await startHttpServer({
        host: config.http.host,
        port: config.http.port,
        logger: runtime.logger,
        metrics: composition.ctx.metrics,
        routes: composition.ctx.httpRoutes,
        health: async () => {
          await pingDatabase(runtime.db);
          return { database: runtime.store.dialect, queue: runtime.queue.kind };
        },
      });
    }
    await runtime.queue.start();
    await composition.started();
    // Before the line that says so: whoever sees "oikos started" may send SIGTERM at once.
    const stopSignal = waitForSignal();
    runtime.logger.info(
      { role: options.role, database: runtime.store.dialect, queue: runtime.queue.kind },
      "oikos started",
    );
    // Everything a start loads is compiled now: keep it for the next start (bin/oikos.js enables the
    // cache; a server's process rarely reaches the normal exit that would write it).
    flushCompileCache();
    if (options.terminal) {
      // The chat capability serves the terminal in every role that attaches it (chat, all).
      const runTerminal = composition.ctx.runTerminal;
      if (!runTerminal) throw new Error(`the ${options.role} role has no terminal chat`);
      await Promise.race([runTerminal(io), stopSignal.promise]);
    } else {
      runtime.logger.info(
        { adapters: composition.ctx.chatAdapters.connected(), http: http?.url ?? null },
        "oikos running headless until SIGTERM or SIGINT",
      );
      await stopSignal.promise;
    }
    stopSignal.dispose();
    return 0;
  } finally {
    // In order: no new chat events; running turns reach a checkpoint and commands end (or are
    // recorded interrupted) within the grace; then everything that served them; the database last.
    runtime.logger.info({ graceMs: config.shutdown.graceMs }, "oikos stopping");
    await composition.quiesce();
    await runtime.queue.close({ graceMs: config.shutdown.graceMs });
    await http?.close();
    await composition.stop();
    await runtime.close();
    // A stop by signal leaves the terminal chat reading stdin; an open pipe would keep the process alive.
    if (options.terminal) io.stdin.destroy();
  }
}

function waitForSignal(): { promise: Promise<void>; dispose(): void } {
  let dispose = () => {};
  const promise = new Promise<void>((resolve) => {
    const onSignal = () => resolve();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    dispose = () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    };
  });
  return { promise, dispose };
}
