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
    // In order: no new command from here on (runtime.stopping); no new chat events; running turns
    // reach a checkpoint and commands end (or are recorded interrupted) within the grace; then
    // everything that served them; the database last. The whole stop fits in the grace: past it
    // the process exits anyway (the next start recovers what was left).
    const began = Date.now();
    const graceMs = config.shutdown.graceMs;
    runtime.beginStop();
    runtime.logger.info({ graceMs }, "oikos stopping");
    const deadline = exitAtDeadline(runtime.logger, Math.max(MIN_DEADLINE_MS, graceMs));
    await composition.quiesce();
    // What is left of the grace for running work, less a reserve for closing what served it.
    const reserve = Math.min(CLOSE_RESERVE_MS, Math.floor(graceMs / 4));
    await runtime.queue.close({ graceMs: Math.max(0, graceMs - (Date.now() - began) - reserve) });
    await http?.close();
    await composition.stop();
    await runtime.close();
    clearTimeout(deadline);
    runtime.logger.info({ ms: Date.now() - began }, "oikos stopped");
    // Everything is closed; what still holds the event loop (a turn's request the database no longer
    // answers, a client's keep-alive socket) must not hold the exit past the grace.
    setTimeout(() => process.exit(), Math.min(LINGER_MS, Math.max(0, began + graceMs - Date.now()))).unref();
    // A stop by signal leaves the terminal chat reading stdin; an open pipe would keep the process alive.
    if (options.terminal) io.stdin.destroy();
  }
}

/** A grace of 0 still lets the process close its database: the deadline is never shorter than this. */
const MIN_DEADLINE_MS = 1_000;

/** How long a stopped process may wait for its event loop to drain before it exits anyway. */
const LINGER_MS = 1_000;

/** Closing HTTP, the adapters' leftovers, the event bus and the database after the queue's grace. */
const CLOSE_RESERVE_MS = 2_000;

/** A stop that outlives its grace ends the process: a stop must stop. */
function exitAtDeadline(logger: { error(o: object, m: string): void }, graceMs: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    logger.error(
      { graceMs },
      "oikos did not stop within OIKOS_SHUTDOWN_GRACE_MS; exiting now (the next start resumes turns and reports interrupted commands)",
    );
    process.exit(1);
  }, graceMs);
  timer.unref();
  return timer;
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
