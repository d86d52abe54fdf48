import type { Executor } from "./audit.ts";

export interface TokenUsage {
  sessionId: string | null;
  model: string;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One row per model call. */
export async function recordTokenUsage(db: Executor, usage: TokenUsage, now = new Date()): Promise<void> {
  await db
    .insertInto("token_usage")
    .values({
      session_id: usage.sessionId,
      model: usage.model,
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.totalTokens,
      created_at: now,
    })
    .execute();
}
