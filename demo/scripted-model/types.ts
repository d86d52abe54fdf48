/** One chat message as an OpenAI-compatible client sends it (only the fields the fixture reads). */
export interface WireMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | null | { type: string; text?: string }[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
}

/** The parsed body of one `/v1/chat/completions` request. */
export interface ChatRequestBody {
  model: string;
  messages: WireMessage[];
  tools?: { type: "function"; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** A scripted tool call; `arguments` as an object is JSON-encoded, a string is sent verbatim (malformed JSON too). */
export interface ScriptedToolCall {
  name: string;
  arguments?: Record<string, unknown> | string;
  id?: string;
}

/**
 * What the fixture answers. A normal reply carries text and/or tool calls; a fault replaces it:
 * `empty` (200 with no content and no tool calls), `http` (an error status, e.g. 429 or 500),
 * `refusal` (200 with only a refusal), `drop` (the connection is destroyed without an answer),
 * `malformed` (200 with a body cut off mid-JSON).
 * `delayMs` delays any reply; `hold` holds it until a promise the test controls settles.
 */
export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  finishReason?: "stop" | "tool_calls" | "length" | "content_filter";
  fault?: "empty" | "http" | "refusal" | "drop" | "malformed";
  /** For fault "http". Default 500. */
  status?: number;
  /** For fault "http": the error message. */
  message?: string;
  /** For fault "refusal". */
  refusal?: string;
  delayMs?: number;
  /**
   * The reply waits (after `delayMs`) until this promise settles, so a test decides when the model
   * answers instead of guessing a delay: `const gate = Promise.withResolvers<void>()`, reply
   * `{ text, hold: gate.promise }`, later `gate.resolve()`. A promise that never settles hangs the
   * request until the client gives up (abort, timeout); `close()` ends it too.
   */
  hold?: PromiseLike<unknown>;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** A request the fixture received: the body plus helpers every matcher needs. */
export interface RecordedRequest {
  /** 0-based arrival order. */
  index: number;
  /** Date.now() when the request body was complete. */
  receivedAt: number;
  /** performance.now() at the same moment (monotonic, for latency figures). */
  receivedAtMono: number;
  body: ChatRequestBody;
  /** Headers as Node parsed them (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** Name (or index) of the step that answered, or null when the fallback answered. */
  step: string | null;
}

export type Matcher = (request: RecordedRequest) => boolean;

export interface ScriptStep {
  /** Shown in `server.requests[i].step` and in mismatch reports. Default: `step-<index>`. */
  name?: string;
  /** Default: matches any request. */
  when?: Matcher;
  /** A fixed reply, or one computed from the request (e.g. echoing an execution id from a tool result). */
  reply: ScriptedReply | ((request: RecordedRequest) => ScriptedReply);
  /** How many requests this step answers before it is used up. Default 1; Infinity for a standing rule. */
  times?: number;
}
