import type { Runtime } from "../app/runtime.ts";
import type { AdapterStatusBoard } from "./adapter-status.ts";
import { type AdapterLauncher, AdapterSupervisor, type SupervisorBackoff } from "./adapter-supervisor.ts";
import type { ChatAdapter, InboundSink } from "./core/chat-adapter.ts";

/**
 * How long start-up waits for the first try of each platform: a platform that answers is
 * connected before "oikos started" (as a test or an operator expects), one that is down or
 * hangs is left to its supervisor and the process serves without it.
 */
const FIRST_TRY_WAIT_MS = 15_000;

export interface ConfiguredAdapters {
  supervisors: AdapterSupervisor[];
  stop(): Promise<void>;
}

/**
 * Starts the Matrix and Slack adapters the config enables, each under a supervisor that retries
 * in the background. Only a configuration that cannot work throws (before anything starts). The
 * SDKs are imported only when configured: the embedded default never loads them.
 */
export async function startConfiguredAdapters(
  runtime: Runtime,
  input: {
    board: AdapterStatusBoard;
    sink: InboundSink;
    onStarting(adapter: ChatAdapter): void;
    onConnected(adapter: ChatAdapter): Promise<void>;
    onDisconnected(adapter: ChatAdapter): void;
    backoff?: SupervisorBackoff;
  },
): Promise<ConfiguredAdapters> {
  const { chat } = runtime.config;
  const launchers: AdapterLauncher[] = [];
  if (chat.matrix.homeserverUrl) {
    const { matrixLauncher } = await import("./matrix/create.ts");
    const launcher = matrixLauncher(runtime);
    if (launcher) launchers.push(launcher);
  }
  if (chat.slack.botToken) {
    const { slackLauncher } = await import("./slack/create.ts");
    const launcher = slackLauncher(runtime);
    if (launcher) launchers.push(launcher);
  }
  const supervisors = launchers.map(
    (launcher) =>
      new AdapterSupervisor({
        launcher,
        board: input.board,
        logger: runtime.logger,
        sink: input.sink,
        onStarting: input.onStarting,
        onConnected: input.onConnected,
        onDisconnected: input.onDisconnected,
        ...(input.backoff ? { backoff: input.backoff } : {}),
      }),
  );
  for (const supervisor of supervisors) supervisor.start();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(supervisors.map((s) => s.firstAttempt())),
    new Promise((resolve) => {
      timer = setTimeout(resolve, FIRST_TRY_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  return {
    supervisors,
    async stop() {
      for (const supervisor of [...supervisors].reverse()) await supervisor.stop();
    },
  };
}
