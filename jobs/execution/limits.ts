/** Commands are network-bound (SSH): a worker carries many at once (config execution.concurrency). */
export const DEFAULT_EXECUTE_CONCURRENCY = 64;
/** Commands running at once on one target in one worker process. */
export const PER_TARGET_CONCURRENCY = 4;
