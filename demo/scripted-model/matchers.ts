import type { Matcher, RecordedRequest, WireMessage } from "./types.ts";

/** Text of a message whatever its content shape (string or content parts). */
export function messageText(message: WireMessage | undefined): string {
  if (!message?.content) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => part.text ?? "").join("");
}

function test(pattern: string | RegExp, text: string): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

/** The last message of the request, whatever its role. */
export function lastMessage(request: RecordedRequest): WireMessage | undefined {
  return request.body.messages.at(-1);
}

/** The last `tool` message, and the name of the tool it answers (from the assistant call before it). */
export function lastToolResult(
  request: RecordedRequest,
): { name: string | undefined; text: string } | undefined {
  const messages = request.body.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "tool") continue;
    const call = messages
      .slice(0, i)
      .reverse()
      .flatMap((m) => m.tool_calls ?? [])
      .find((c) => c.id === message.tool_call_id);
    return { name: call?.function.name ?? message.name, text: messageText(message) };
  }
  return undefined;
}

/** Matcher helpers; combine with `match.all` / `match.any` / `match.not`, or write any `(request) => boolean`. */
export const match = {
  always: (): Matcher => () => true,
  /** The most recent tool result contains `pattern` (and, if given, answers tool `tool`). */
  lastToolResult:
    (pattern: string | RegExp, tool?: string): Matcher =>
    (request) => {
      const result = lastToolResult(request);
      return (
        result !== undefined && (tool === undefined || result.name === tool) && test(pattern, result.text)
      );
    },
  /** The request ends with a tool result (the model is mid-turn), optionally of tool `tool`. */
  endsWithToolResult:
    (tool?: string): Matcher =>
    (request) =>
      lastMessage(request)?.role === "tool" && (tool === undefined || lastToolResult(request)?.name === tool),
  /** The last `user` message matches. */
  lastUserMessage:
    (pattern: string | RegExp): Matcher =>
    (request) => {
      const users = request.body.messages.filter((m) => m.role === "user");
      return users.length > 0 && test(pattern, messageText(users.at(-1)));
    },
  /** Some system/developer message (prompt or a note) matches. */
  systemMentions:
    (pattern: string | RegExp): Matcher =>
    (request) =>
      request.body.messages.some(
        (m) => (m.role === "system" || m.role === "developer") && test(pattern, messageText(m)),
      ),
  /** The last message is a system/developer note that matches (a continuation, nudge or corrective note). */
  lastSystemNote:
    (pattern: string | RegExp): Matcher =>
    (request) => {
      const last = lastMessage(request);
      return (last?.role === "system" || last?.role === "developer") && test(pattern, messageText(last));
    },
  /** Any message of any role matches. */
  anyMessage:
    (pattern: string | RegExp): Matcher =>
    (request) =>
      request.body.messages.some((m) => test(pattern, messageText(m))),
  /** The request offers tools (true) or is a no-tools call such as a final status report (false). */
  toolsOffered:
    (offered = true): Matcher =>
    (request) =>
      (request.body.tools?.length ?? 0) > 0 === offered,
  /** The request was sent with this header value (e.g. a session id set by the client). */
  header:
    (name: string, pattern: string | RegExp): Matcher =>
    (request) => {
      const value = request.headers[name.toLowerCase()];
      return typeof value === "string" && test(pattern, value);
    },
  all:
    (...matchers: Matcher[]): Matcher =>
    (request) =>
      matchers.every((m) => m(request)),
  any:
    (...matchers: Matcher[]): Matcher =>
    (request) =>
      matchers.some((m) => m(request)),
  not:
    (matcher: Matcher): Matcher =>
    (request) =>
      !matcher(request),
};
