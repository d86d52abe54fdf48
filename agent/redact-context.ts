import { redact } from "../policy/redact.ts";
import type { ChatMessage } from "./model-port.ts";

/**
 * Every text bound for the model endpoint with secrets replaced (policy/redact.ts): operator
 * messages, tool results, notes, the system prompt and replayed tool-call arguments. The transcript
 * may keep the operator's own words; the model never gets them raw.
 */
export function redactMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((message): ChatMessage => {
    switch (message.role) {
      case "assistant":
        return {
          ...message,
          content: message.content === null ? null : redact(message.content),
          ...(message.tool_calls
            ? {
                tool_calls: message.tool_calls.map((call) => ({
                  ...call,
                  function: { ...call.function, arguments: redact(call.function.arguments) },
                })),
              }
            : {}),
        };
      case "tool":
        return { ...message, content: redact(message.content) };
      default:
        return { ...message, content: redact(message.content) };
    }
  });
}
