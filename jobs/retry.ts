/** How often and how patiently to try again. */
export interface BackoffPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Wait after the first failed try; doubled after each later one. */
  baseDelayMs: number;
  /** Longest single wait. Default: no cap. */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Delay before the next try after `attemptsMade` tries: base · 2^(attemptsMade − 1), capped. */
export function backoffDelay(baseMs: number, attemptsMade: number, maxMs = Number.POSITIVE_INFINITY): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attemptsMade - 1));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `tryOnce(attempt)` (1-based) until it returns, up to `policy.attempts` tries. After a failed
 * try `retryAfter(error)` decides: undefined stops (the error is thrown); a number is the wait the
 * other side asked for, where 0 or less means the exponential backoff. The last error is thrown
 * when the tries run out. The one retry loop of the model calls and the Matrix sends; the queue's
 * job retries use the same backoffDelay.
 */
export async function retryWithBackoff<T>(
  tryOnce: (attempt: number) => Promise<T>,
  policy: BackoffPolicy,
  retryAfter: (error: unknown) => number | undefined,
): Promise<T> {
  const sleep = policy.sleep ?? realSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await tryOnce(attempt);
    } catch (error) {
      const asked = retryAfter(error);
      if (asked === undefined || attempt >= policy.attempts) throw error;
      const backoff = backoffDelay(policy.baseDelayMs, attempt, policy.maxDelayMs);
      await sleep(asked > 0 ? Math.min(asked, policy.maxDelayMs ?? asked) : backoff);
    }
  }
}
