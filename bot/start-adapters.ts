import type { Runtime } from "../app/runtime.ts";
import type { ChatAdapter, InboundSink } from "./core/chat-adapter.ts";
import { createMatrixAdapter } from "./matrix/create.ts";
import { createSlackAdapter } from "./slack/create.ts";

/** Starts the Matrix and Slack adapters the config enables; returns those that started. */
export async function startConfiguredAdapters(
  runtime: Runtime,
  adapters: Map<string, ChatAdapter>,
  sink: InboundSink,
): Promise<ChatAdapter[]> {
  const candidates = [createMatrixAdapter(runtime), createSlackAdapter(runtime)].filter(
    (a): a is NonNullable<typeof a> => a !== undefined,
  );
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
