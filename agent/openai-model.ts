import type OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { ModelFault, type ModelPort, type ModelReply, type ModelRequest } from "./model-port.ts";

export interface OpenAiModelOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/**
 * Any OpenAI-compatible endpoint through the openai SDK. The SDK's own retries are off: the agent
 * retries itself (agent/model-call.ts) so each fault is visible, classified and corrected. The SDK
 * (~30 MB resident) is loaded by the first model call, so an idle process never holds it.
 */
export function createOpenAiModel(options: OpenAiModelOptions): ModelPort {
  let sdk: Promise<{ OpenAI: typeof OpenAI; client: OpenAI }> | undefined;
  const load = () => {
    sdk ??= import("openai").then(({ default: OpenAI }) => ({
      OpenAI,
      client: new OpenAI({
        baseURL: options.baseUrl,
        apiKey: options.apiKey ?? "not-set",
        maxRetries: 0,
        timeout: options.timeoutMs,
      }),
    }));
    return sdk;
  };
  return {
    model: options.model,
    async complete(request: ModelRequest): Promise<ModelReply> {
      const body: ChatCompletionCreateParamsNonStreaming = {
        model: options.model,
        messages: request.messages as ChatCompletionCreateParamsNonStreaming["messages"],
        ...(request.tools && request.tools.length > 0
          ? { tools: request.tools as ChatCompletionCreateParamsNonStreaming["tools"], tool_choice: "auto" }
          : {}),
      };
      const { OpenAI, client } = await load();
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create(body, { signal: request.signal });
      } catch (error) {
        throw classify(OpenAI, error);
      }
      const choice = completion.choices[0];
      const message = choice?.message;
      return {
        content: message?.content ?? null,
        refusal: message?.refusal ?? null,
        toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
          call.type === "function"
            ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
            : [],
        ),
        finishReason: choice?.finish_reason ?? null,
        usage: completion.usage
          ? {
              promptTokens: completion.usage.prompt_tokens,
              completionTokens: completion.usage.completion_tokens,
              totalTokens: completion.usage.total_tokens,
            }
          : null,
      };
    },
  };
}

function classify(OpenAI: typeof import("openai").default, error: unknown): ModelFault {
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new ModelFault("timeout", "the model request timed out");
  if (error instanceof OpenAI.APIConnectionError)
    return new ModelFault("connection", `cannot reach the model endpoint: ${error.message}`);
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    if (status === 429) return new ModelFault("rate_limit", `rate limited (429): ${error.message}`, status);
    if (status === 408 || status === 409 || (status !== undefined && status >= 500)) {
      return new ModelFault("server", `model endpoint error ${status}: ${error.message}`, status);
    }
    return new ModelFault(
      "client",
      `model endpoint refused the request (${status}): ${error.message}`,
      status,
    );
  }
  if (error instanceof Error && error.name === "AbortError")
    return new ModelFault("timeout", "the model request was aborted");
  return new ModelFault("connection", `model call failed: ${String(error)}`);
}
