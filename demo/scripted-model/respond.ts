import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { ChatRequestBody, ScriptedReply } from "./types.ts";

interface ToolCallOut {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

function toolCallsOf(reply: ScriptedReply): ToolCallOut[] {
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
    },
  }));
}

function usageOf(body: ChatRequestBody, reply: ScriptedReply, completionText: string) {
  const prompt = reply.usage?.prompt_tokens ?? Math.ceil(JSON.stringify(body.messages).length / 4);
  const completion = reply.usage?.completion_tokens ?? Math.max(1, Math.ceil(completionText.length / 4));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Writes an OpenAI-style error body with `status`. */
export function writeHttpError(res: ServerResponse, status: number, message: string): void {
  const type =
    status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  res.writeHead(status, {
    "content-type": "application/json",
    ...(status === 429 ? { "retry-after": "0" } : {}),
  });
  res.end(JSON.stringify({ error: { message, type, code: type } }));
}

/** Writes one chat completion for `reply` (fault "http"/"drop" are handled by the caller). */
export function writeCompletion(res: ServerResponse, body: ChatRequestBody, reply: ScriptedReply): void {
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = reply.fault === "empty" || reply.fault === "refusal" ? [] : toolCallsOf(reply);
  const text = reply.fault === "empty" || reply.fault === "refusal" ? null : (reply.text ?? null);
  const refusal = reply.fault === "refusal" ? (reply.refusal ?? "I can't help with that.") : null;
  const finish = reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
  const usage = usageOf(body, reply, (text ?? "") + JSON.stringify(toolCalls));
  if (body.stream) {
    writeStream(res, { id, created, model: body.model, text, refusal, toolCalls, finish, usage, body });
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id,
      object: "chat.completion",
      created,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text,
            refusal,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: finish,
          logprobs: null,
        },
      ],
      usage,
    }),
  );
}

interface StreamParts {
  id: string;
  created: number;
  model: string;
  text: string | null;
  refusal: string | null;
  toolCalls: ToolCallOut[];
  finish: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  body: ChatRequestBody;
}

/** Server-sent events the way OpenAI streams: role, content pieces, tool-call pieces, finish, [DONE]. */
function writeStream(res: ServerResponse, parts: StreamParts): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({
        id: parts.id,
        object: "chat.completion.chunk",
        created: parts.created,
        model: parts.model,
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        ...extra,
      })}\n\n`,
    );
  chunk({ role: "assistant", content: "" });
  if (parts.refusal) chunk({ refusal: parts.refusal });
  for (const piece of splitText(parts.text ?? "")) chunk({ content: piece });
  parts.toolCalls.forEach((call, index) => {
    chunk({
      tool_calls: [
        { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
      ],
    });
    for (const piece of splitText(call.function.arguments)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunk({}, parts.finish);
  if (parts.body.stream_options?.include_usage) {
    res.write(
      `data: ${JSON.stringify({ id: parts.id, object: "chat.completion.chunk", created: parts.created, model: parts.model, choices: [], usage: parts.usage })}\n\n`,
    );
  }
  res.end("data: [DONE]\n\n");
}

function splitText(text: string, size = 16): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
