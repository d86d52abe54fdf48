import type { Runtime } from "../app/runtime.ts";
import type { ChatAdapter, InboundSink } from "./core/chat-adapter.ts";

/**
 * Starts the Matrix and Slack adapters the config enables; returns those that started. The SDKs
 * are imported only when configured: the embedded default never loads them.
 */
export async function startConfiguredAdapters(
  runtime: Runtime,
  adapters: Map<string, ChatAdapter>,
  sink: InboundSink,
): Promise<ChatAdapter[]> {
  const { chat } = runtime.config;
  const candidates: ChatAdapter[] = [];
  if (
    chat.matrix.homeserverUrl &&
    (chat.matrix.accessToken || (chat.matrix.userId && chat.matrix.password))
  ) {
    const { createMatrixAdapter } = await import("./matrix/create.ts");
    const adapter = await createMatrixAdapter(runtime);
    if (adapter) candidates.push(adapter);
  }
  if (chat.slack.botToken) {
    const { createSlackAdapter } = await import("./slack/create.ts");
    const adapter = createSlackAdapter(runtime);
    if (adapter) candidates.push(adapter);
  }
  const started: ChatAdapter[] = [];
  for (const adapter of candidates) {
    adapters.set(adapter.platform, adapter);
    try {
      await adapter.start(sink);
      started.push(adapter);
      runtime.logger.info({ platform: adapter.platform, self: adapter.selfId }, "chat adapter started");
    } catch (error) {
      adapters.delete(adapter.platform);
      for (const other of started) await other.stop().catch(() => {});
      throw error;
    }
  }
  return started;
}
