import type { Capability, ComposeContext } from "../app/compose-context.ts";
import type { Runtime } from "../app/runtime.ts";
import { requestRollback } from "../jobs/proxmox/rollback.ts";
import { configuredSshTransport, lazySshRunner } from "../jobs/ssh/create-ssh-transport.ts";
import { parseConsent } from "../policy/consent.ts";
import { DbHostKeyStore } from "../store/known-hosts.ts";
import { appendMessage } from "../store/messages.ts";
import { proposedPlanGenerations } from "../store/plans.ts";
import { answerOpenQuestion } from "../store/questions.ts";
import { roomAccessConfig } from "./access-config.ts";
import { RoomAccess } from "./core/access.ts";
import { approvalsCommand, cancelCommand, grantsCommand, sweepCommand } from "./core/admin-commands.ts";
import { AlertThreads } from "./core/alert-threads.ts";
import { CardRenderer } from "./core/card-renderer.ts";
import type { ChatAdapter } from "./core/chat-adapter.ts";
import { ChatCore } from "./core/chat-core.ts";
import { consoleCommands } from "./core/console/console-commands.ts";
import type { ChatCoreDeps } from "./core/core-deps.ts";
import { RedactingAdapterMap } from "./core/redacting-adapters.ts";
import { rollbackAnswer, rollbackCommand } from "./core/rollback-command.ts";
import { routingCommand } from "./core/routing-command.ts";
import { ScheduleThreads } from "./core/schedule-threads.ts";
import { waitForQuietQueue } from "./shell/quiet-queue.ts";
import { TerminalAdapter } from "./shell/terminal-adapter.ts";
import { startConfiguredAdapters } from "./start-adapters.ts";

/**
 * The chat bot: the platform-free core, the card renderer on the event bus, the admin commands,
 * the configured Matrix / Slack adapters, and the terminal adapter when serve attaches stdin.
 */
export const chatCapability: Capability = {
  name: "chat",
  async start(runtime: Runtime, ctx: ComposeContext) {
    const { config, db, queue, events, logger } = runtime;
    const access = new RoomAccess(roomAccessConfig(config.chat));
    // asking to roll back reads the guest's snapshots on its node first (ZFS: newest only)
    const nodeReads = lazySshRunner(() => configuredSshTransport(config.ssh, new DbHostKeyStore(db)));
    const rollbackDeps = {
      db,
      events,
      targets: { sshUser: config.ssh.user },
      approvalTtlMs: config.execution.approvalTtlMs,
      runner: nodeReads.runner,
    };
    ctx.commands
      .add(sweepCommand(queue))
      .add(approvalsCommand(db))
      .add(grantsCommand(db))
      .add(cancelCommand(db))
      .add(routingCommand(db))
      .add(rollbackCommand(rollbackDeps));
    for (const command of consoleCommands(db)) ctx.commands.add(command);
    if (ctx.role === "worker" || ctx.role === "mcp") return { stop: () => nodeReads.close() };
    const deps: ChatCoreDeps = {
      db,
      assentWindowMs: config.execution.assentWindowMs,
      grantDays: config.approvals.grantDays,
      approvalRules: config.approvals.rules,
      queue,
      events,
      logger,
      commands: ctx.commands,
      access,
      modelConfigured: Boolean(config.model.baseUrl),
      parseConsent,
      recordMessage: async ({ sessionId, text, author, eventId }) =>
        (
          await appendMessage(db, {
            sessionId,
            role: "user",
            content: text,
            author,
            platformEventId: eventId,
          })
        ).id,
      answerQuestion: async (input) => (await answerOpenQuestion(db, input)) !== undefined,
      requestRollback: async (executionId, by) =>
        rollbackAnswer(await requestRollback(rollbackDeps, { executionId, by })),
      // The run service holds the previewer (when one is configured): the same one that made the card's preview.
      previewAtApproval: async (approvalId, act) => {
        const previews = (await ctx.runService()).previews;
        return previews ? previews.atApproval(approvalId, act) : { kind: "proceed" };
      },
    };
    // Every adapter registered here posts and edits through policy redact.
    const adapters = new RedactingAdapterMap();
    const core = new ChatCore(deps, adapters);
    const scheduled = new ScheduleThreads({ db, schedules: config.schedules });
    const renderer = new CardRenderer({
      db,
      adapters,
      cards: core.cards,
      logger,
      scheduled,
      mentions: (platform, room, self) => access.mentions(platform, room, self),
    });
    const unsubscribe = renderer.subscribe(events);
    registerAlertThreads(runtime, adapters, renderer);
    // Each configured platform connects in the background: one that is down or refuses is retried
    // while the terminal, /mcp, alerts and the queue serve; a card left unposted goes out once it is up.
    const platforms =
      ctx.role === "all"
        ? await startConfiguredAdapters(runtime, {
            board: ctx.chatAdapters,
            sink: (e) => core.handle(e),
            onStarting: (adapter) => {
              adapters.set(adapter.platform, adapter);
            },
            onConnected: async (adapter) => {
              await renderer.renderUnposted([adapter.platform]);
            },
            onDisconnected: (adapter) => {
              adapters.delete(adapter.platform);
            },
          })
        : undefined;
    ctx.runTerminal = async (io) => {
      const terminal = new TerminalAdapter({
        input: io.stdin,
        output: io.stdout,
        user: config.chat.shell.user,
        settle: () => waitForQuietQueue(db, queue),
      });
      adapters.set(terminal.platform, terminal);
      await terminal.start((e) => core.handle(e));
      try {
        await terminal.run();
      } finally {
        await terminal.stop();
        adapters.delete(terminal.platform);
      }
    };
    const stopAdapters = async () => {
      await platforms?.stop();
    };
    return {
      // No chat event is taken once a stop begins: one that arrives later is handled after the restart.
      quiesce: stopAdapters,
      async stop() {
        unsubscribe();
        await stopAdapters();
        await nodeReads.close();
      },
    };
  },
};

/**
 * The `alert-thread` job: posting an alert group's thread and its updates needs the chat
 * adapters, so only a process that runs them takes these jobs (oikos start; oikos chat for the
 * terminal).
 */
function registerAlertThreads(
  runtime: Runtime,
  adapters: ReadonlyMap<string, ChatAdapter>,
  renderer: CardRenderer,
): void {
  const { db, queue, logger, config } = runtime;
  const threads = new AlertThreads({
    db,
    queue,
    adapters,
    logger,
    maxConcurrent: config.alerts.maxConcurrent,
    refreshPlans: async (adapter, sessionId) => {
      for (const generation of await proposedPlanGenerations(db, sessionId))
        await renderer.refreshPlan(adapter, sessionId, generation);
    },
  });
  // One at a time: an update must never race the post that opens its thread.
  queue.register("alert-thread", (job) => threads.handle(job.data));
}
