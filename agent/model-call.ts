import { retryWithBackoff } from "../jobs/retry.ts";
import { ModelFault, type ModelPort, type ModelReply, type ModelRequest } from "./model-port.ts";
import { redactMessages } from "./redact-context.ts";

export interface RetryPolicy {
  /** Total attempts per model call. Default 3. */
  attempts: number;
  /** Backoff before attempt n+1: baseDelayMs * 2^(n-1). Default 1000. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 1000 };

export type ModelCallResult =
  | { ok: true; reply: ModelReply; attempts: number }
  | { ok: false; fault: ModelFault; attempts: number };

/** A reply with no text and no tool calls (or only a refusal) is a fault, not an answer. */
export function isEmptyReply(reply: ModelReply): boolean {
  return reply.toolCalls.length === 0 && !(reply.content ?? "").trim();
}

/**
 * One model call with retries. Empty and refused replies, 429/5xx, timeouts and connection faults
 * are retried with backoff; an empty reply adds a short corrective note to the next attempt (an
 * escalating one on the last), never persisted. 4xx other than 408/409/429 are not retried. Every
 * request's messages are redacted (policy/redact.ts) on the way out: no secret reaches the endpoint.
 */
export async function callModel(
  model: ModelPort,
  request: ModelRequest,
  options: {
    retry: RetryPolicy;
    sleep: (ms: number) => Promise<void>;
    onAttempt?: (reply: ModelReply) => Promise<void>;
  },
): Promise<ModelCallResult> {
  let corrective: string | null = null;
  let attempts = 0;
  try {
    const reply = await retryWithBackoff(
      async (attempt) => {
        attempts = attempt;
        const messages = redactMessages(
          corrective
            ? [...request.messages, { role: "system" as const, content: corrective }]
            : request.messages,
        );
        let reply: ModelReply;
        try {
          reply = await model.complete({ ...request, messages });
          await options.onAttempt?.(reply);
        } catch (error) {
          throw error instanceof ModelFault ? error : new ModelFault("connection", String(error));
        }
        if (!isEmptyReply(reply)) return reply;
        corrective =
          attempt + 1 >= options.retry.attempts
            ? "Your previous replies were empty. Last attempt: call exactly one tool now (the next plan step, ask_operator " +
              "or complete_task), or reply with one sentence of status for the operator."
            : "Your previous reply was empty. Reply now with the next tool call, or a short status for the operator.";
        throw reply.refusal
          ? new ModelFault("refusal", `the model refused: ${reply.refusal}`)
          : new ModelFault(
              "empty",
              `the model returned an empty response (finish_reason=${reply.finishReason ?? "none"})`,
            );
      },
      { attempts: options.retry.attempts, baseDelayMs: options.retry.baseDelayMs, sleep: options.sleep },
      (fault) => ((fault as ModelFault).retryable ? 0 : undefined),
    );
    return { ok: true, reply, attempts };
  } catch (fault) {
    return { ok: false, fault: fault as ModelFault, attempts };
  }
}
