import type { Capability, ComposeContext } from "../app/compose.ts";
import type { Runtime } from "../app/runtime.ts";
import { parseConsent } from "../policy/consent.ts";
import { appendMessage } from "../store/messages.ts";
import { answerOpenQuestion } from "../store/questions.ts";
import { roomAccessConfig } from "./access-config.ts";
import { RoomAccess } from "./core/access.ts";
import { approvalsCommand, cancelCommand, sweepCommand } from "./core/admin-commands.ts";
import { CardRenderer } from "./core/card-renderer.ts";
import { ChatCore } from "./core/chat-core.ts";
import type { ChatCoreDeps } from "./core/core-deps.ts";
import { RedactingAdapterMap } from "./core/redacting-adapters.ts";
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
    ctx.commands.add(sweepCommand(queue)).add(approvalsCommand(db)).add(cancelCommand(db));
    if (ctx.role === "worker" || ctx.role === "mcp") return undefined;
    const deps: ChatCoreDeps = {
      db,
      assentWindowMs: config.execution.assentWindowMs,
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
    };
    // Every adapter registered here posts and edits through policy redact.
    const adapters = new RedactingAdapterMap();
    const core = new ChatCore(deps, adapters);
    const renderer = new CardRenderer({ db, adapters, cards: core.cards, logger });
    const unsubscribe = renderer.subscribe(events);
    const started =
      ctx.role === "all" ? await startConfiguredAdapters(runtime, adapters, (e) => core.handle(e)) : [];
    ctx.chatAdapters.push(...started.map((a) => a.platform));
    // Cards that a failed post or a crash left unposted (pending plans, approvals, questions).
    if (started.length > 0) await renderer.renderUnposted();
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
    return {
      async stop() {
        unsubscribe();
        for (const adapter of started.reverse()) {
          try {
            await adapter.stop();
          } catch (error) {
            logger.error({ err: error, platform: adapter.platform }, "chat adapter failed to stop");
          }
        }
      },
    };
  },
};
