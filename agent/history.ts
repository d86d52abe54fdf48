import type { StoredMessage } from "../store/messages.ts";
import type { ChatMessage } from "./model-port.ts";

/** Tool results replayed to the model are cut to this many characters (the transcript keeps all). */
export const MAX_TOOL_RESULT_CHARS = 12_000;

/**
 * The stored window as chat messages the endpoint accepts: leading tool results whose call fell out
 * of the window are dropped, and a tool call without a recorded result (a crash mid-call) gets a
 * placeholder result so the conversation stays well-formed.
 */
export function toChatMessages(window: StoredMessage[], omitted: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (omitted > 0) {
    out.push({
      role: "system",
      content:
        `${omitted} older messages of this session are not shown. Do not assume something was not done because you ` +
        "cannot see it: the plan above and the knowledge tools are the record.",
    });
  }
  let start = 0;
  while (start < window.length && window[start]!.role === "tool") start++;
  for (let i = start; i < window.length; i++) {
    const message = window[i]!;
    if (message.role === "assistant") {
      const calls = message.toolCalls ?? [];
      out.push({
        role: "assistant",
        content: message.content || null,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: "function" as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      });
      const answered = new Set<string>();
      let j = i + 1;
      while (j < window.length && window[j]!.role === "tool") {
        const result = window[j]!;
        if (
          result.toolCallId &&
          calls.some((c) => c.id === result.toolCallId) &&
          !answered.has(result.toolCallId)
        ) {
          answered.add(result.toolCallId);
          out.push({ role: "tool", tool_call_id: result.toolCallId, content: clip(result.content) });
        }
        j++;
      }
      for (const call of calls) {
        if (!answered.has(call.id)) {
          out.push({
            role: "tool",
            tool_call_id: call.id,
            content: "(no result recorded: the turn was interrupted)",
          });
        }
      }
      i = j - 1;
    } else if (message.role === "user") {
      out.push({ role: "user", content: message.content });
    } else if (message.role === "system") {
      out.push({ role: "system", content: message.content });
    }
    // A tool message not directly after its call is an orphan and is skipped.
  }
  return out;
}

function clip(text: string): string {
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text;
  const half = MAX_TOOL_RESULT_CHARS / 2;
  return `${text.slice(0, half)}\n… (${text.length - MAX_TOOL_RESULT_CHARS} characters cut) …\n${text.slice(-half)}`;
}
