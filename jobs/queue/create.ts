import type { OutageLogger } from "../redis-outage.ts";
import { InProcessQueue } from "./in-process.ts";
import type { JobJournal } from "./journal.ts";
import type { JobFailure, QueueErrorReporter, QueuePort } from "./port.ts";

export interface CreateQueueOptions {
  /** Set: BullMQ on this Redis. Unset: the in-process queue. */
  redisUrl?: string;
  /** Redis key prefix (BullMQ only). Default "oikos". */
  prefix?: string;
  /** BullMQ only: a running job's lock, and how often workers look for expired ones. Default 30 000. */
  lockMs?: number;
  /** Durable journal for the in-process queue (store/queue-journal.ts); default in memory. */
  journal?: JobJournal;
  /** pino-compatible logger; failed jobs are logged at error level. */
  logger?: { error(object: object, message: string): void } & Partial<OutageLogger>;
  /** Overrides logger for failure reports. */
  onError?: QueueErrorReporter;
}

/** BullMQ (and ioredis) are loaded only when a Redis URL asks for them: ~35 MB a single process does not need. */
export async function createQueue(options: CreateQueueOptions = {}): Promise<QueuePort> {
  const logger = options.logger;
  const onError =
    options.onError ??
    (logger
      ? (error: unknown, job: JobFailure) =>
          logger.error({ err: error, job }, job.final ? "job failed" : "job failed, will retry")
      : undefined);
  if (options.redisUrl) {
    const lock = options.lockMs ? { lockDurationMs: options.lockMs, stalledIntervalMs: options.lockMs } : {};
    const { BullmqQueue } = await import("./bullmq.ts");
    const outage = logger?.warn && logger.info ? { logger: logger as OutageLogger } : {};
    return new BullmqQueue({
      redisUrl: options.redisUrl,
      prefix: options.prefix,
      onError,
      ...lock,
      ...outage,
    });
  }
  return new InProcessQueue({ journal: options.journal, onError });
}
