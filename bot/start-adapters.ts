import type { Runtime } from "../app/runtime.ts";
import type { ChatAdapter, InboundSink } from "./core/chat-adapter.ts";

/** Starts the Matrix and Slack adapters the config enables; returns those that started. */
export async function startConfiguredAdapters(
  _runtime: Runtime,
  _adapters: Map<string, ChatAdapter>,
  _sink: InboundSink,
): Promise<ChatAdapter[]> {
  return [];
}
