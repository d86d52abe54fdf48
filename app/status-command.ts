import { describeAdapter } from "../bot/adapter-status.ts";
import { type BotCommand, defineCommand } from "../bot/core/bot-commands.ts";
import type { ComposeContext } from "./compose-context.ts";
import { safeUrl } from "./config.ts";
import type { Runtime } from "./runtime.ts";

/** `!status`: what this process runs on. Never prints a key, token or password. */
export function statusCommand(runtime: Runtime, ctx: ComposeContext): BotCommand {
  return defineCommand({
    name: "status",
    args: {},
    summary: "database, queue, chat adapters and model endpoint",
    permission: "anyone",
    async run() {
      const { config } = runtime;
      const queue = runtime.queue.kind === "bullmq" ? "BullMQ on Redis" : "in-process queue";
      const adapters = [
        ...(ctx.terminalAttached ? ["shell"] : []),
        ...ctx.chatAdapters.list().map((a) => describeAdapter(a.platform, a.status)),
      ];
      const model = config.model.baseUrl
        ? `${config.model.name} at ${safeUrl(config.model.baseUrl)}${config.model.apiKey ? " (API key set)" : ""}`
        : "not configured (set OPENAI_BASE_URL, OPENAI_API_KEY, OIKOS_MODEL)";
      return [
        "oikos status",
        `  database:  ${runtime.store.describe}`,
        `  queue:     ${queue}`,
        `  chat:      ${adapters.join("; ") || "none"}`,
        `  model:     ${model}`,
        `  http:      ${config.http.enabled ? `${config.http.host}:${config.http.port}` : "disabled (set OIKOS_HTTP_PORT)"}`,
      ].join("\n");
    },
  });
}
