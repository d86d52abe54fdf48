/** The chat message shapes the agent sends (OpenAI wire format, narrowed to what we use). */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: WireToolCall[] }
  | { role: "tool"; content: string; tool_call_id: string };

export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ToolSpec {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface ModelReply {
  content: string | null;
  refusal: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number } | null;
}

export interface ModelRequest {
  messages: ChatMessage[];
  /** Omitted or empty: a no-tools call (the final status report). */
  tools?: ToolSpec[];
  signal?: AbortSignal;
}

/** The model endpoint as the agent sees it; agent/openai-model.ts adapts the openai SDK to it. */
export interface ModelPort {
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelReply>;
}

export type ModelFaultKind =
  | "empty"
  | "refusal"
  | "rate_limit"
  | "server"
  | "timeout"
  | "connection"
  | "client";

/** A failed model call, classified so the retry loop knows whether another attempt can help. */
export class ModelFault extends Error {
  readonly kind: ModelFaultKind;
  readonly status: number | undefined;

  constructor(kind: ModelFaultKind, message: string, status?: number) {
    super(message);
    this.name = "ModelFault";
    this.kind = kind;
    this.status = status;
  }

  get retryable(): boolean {
    return this.kind !== "client";
  }
}
