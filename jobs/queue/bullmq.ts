import { type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { type QueueName, type QueuePayload, queueNames } from "../contracts.ts";
import { type OutageLogger, RedisOutage } from "../redis-outage.ts";
import { QueueClosedError, UnrecoverableJobError } from "./errors.ts";
import { parsePayload } from "./payload.ts";
import {
  checkRepeat,
  cronFireJobId,
  DEFAULT_BACKOFF_MS,
  DEFAULT_GRACE_MS,
  type EnqueueOptions,
  infraFailure,
  type JobHandler,
  type QueueErrorReporter,
  type QueuePort,
  RERUN_INTERRUPTED_MAX_RUNS,
  type RegisterOptions,
  type RepeatInfo,
  type RepeatOptions,
  reportToStderr,
} from "./port.ts";
import { settleWithin, untilAborted } from "./settle.ts";

export interface BullmqQueueOptions {
  redisUrl: string;
  /** Redis key prefix; every key this adapter writes starts with it. Default "oikos". */
  prefix?: string;
  /** Where failed jobs and failing hooks are reported. Default: stderr. */
  onError?: QueueErrorReporter;
  /** A running job's lock lives this long unless renewed (every half of it). Default 30 000. */
  lockDurationMs?: number;
  /** How often workers look for jobs whose lock expired (stalled). Default 30 000. */
  stalledIntervalMs?: number;
  /** A Redis outage is told here, once (warn) and its end (info), instead of per reconnect attempt. */
  logger?: OutageLogger;
}

interface Registration {
  handler: JobHandler<unknown>;
  concurrency: number;
  onInterrupted?: RegisterOptions<unknown>["onInterrupted"];
  rerunInterrupted: boolean;
  onCrashLoop?: RegisterOptions<unknown>["onCrashLoop"];
}

// BullMQ's deferred-failure text for a job whose lock expired more than maxStalledCount times.
const STALLED_REASON = "job stalled more than allowable limit";
const SHUTDOWN_REASON = "interrupted: queue shutdown";
const KEEP_FAILED = { age: 7 * 24 * 3600, count: 1000 };

/**
 * BullMQ v5 on Redis. Several processes may produce and consume the same queues (`oikos worker`).
 *
 * Stalls: a job whose worker died (or whose event loop blocked past lockDuration, 30 s) is
 * "stalled". BullMQ's default re-runs it once; we set maxStalledCount 0 so it fails instead and
 * onInterrupted records it, the same as the in-process adapter does for a job active at a crash.
 * A rerunInterrupted job stalls up to RERUN_INTERRUPTED_MAX_RUNS - 1 times; the next stall fails it
 * and onCrashLoop is called.
 * Re-running a half-done SSH command blindly is worse than telling the operator. Handlers must
 * still be idempotent against database state (retries re-run them by design).
 */
export class BullmqQueue implements QueuePort {
  readonly kind = "bullmq" as const;
  readonly #connection: Redis;
  readonly #prefix: string;
  readonly #onError: QueueErrorReporter;
  readonly #outage: RedisOutage;
  readonly #lockDurationMs: number;
  readonly #stalledIntervalMs: number;
  readonly #handlers = new Map<QueueName, Registration>();
  readonly #queues = new Map<QueueName, Queue>();
  readonly #workers = new Map<QueueName, Worker>();
  readonly #stopping = new AbortController();
  #started = false;
  #aborting = false;
  #closing: Promise<void> | null = null;

  constructor(options: BullmqQueueOptions) {
    // BullMQ requires maxRetriesPerRequest null on connections workers block on.
    this.#connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    this.#outage = new RedisOutage("queue", options.logger);
    this.#outage.watch(this.#connection);
    this.#connection.on("error", (error) => this.#infraError(error, "redis"));
    this.#prefix = options.prefix ?? "oikos";
    this.#onError = options.onError ?? reportToStderr;
    this.#lockDurationMs = options.lockDurationMs ?? 30_000;
    this.#stalledIntervalMs = options.stalledIntervalMs ?? 30_000;
  }

  register<Q extends QueueName>(
    queue: Q,
    handler: JobHandler<QueuePayload<Q>>,
    options: RegisterOptions<QueuePayload<Q>> = {},
  ): void {
    if (this.#closing) throw new QueueClosedError(`register a handler for "${queue}"`);
    this.#handlers.set(queue, {
      handler: handler as JobHandler<unknown>,
      concurrency: Math.max(1, options.concurrency ?? 1),
      onInterrupted: options.onInterrupted as Registration["onInterrupted"],
      rerunInterrupted: options.rerunInterrupted ?? false,
      onCrashLoop: options.onCrashLoop as Registration["onCrashLoop"],
    });
    if (this.#started) this.#startWorker(queue);
  }

  async enqueue<Q extends QueueName>(
    queue: Q,
    data: QueuePayload<Q>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    if (this.#closing) throw new QueueClosedError(`enqueue a "${queue}" job`);
    const payload = parsePayload(queue, data);
    const bullQueue = this.#queue(queue);
    const jobId = options.jobId === undefined ? undefined : encodeJobId(options.jobId);
    if (jobId) {
      // Completed jobs are removed at once; a kept failed job would swallow the new one.
      const existing = await bullQueue.getJob(jobId);
      if (existing && (await existing.isFailed())) await existing.remove();
    }
    const job = await bullQueue.add(queue, payload, {
      jobId,
      delay: Math.max(0, options.delayMs ?? 0),
      attempts: Math.max(1, options.attempts ?? 1),
      backoff: { type: "exponential", delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
      removeOnComplete: true,
      removeOnFail: KEEP_FAILED,
    });
    return options.jobId ?? String(job.id);
  }

  async repeat<Q extends QueueName>(queue: Q, data: QueuePayload<Q>, options: RepeatOptions): Promise<void> {
    if (this.#closing) throw new QueueClosedError(`schedule "${options.key}"`);
    const payload = parsePayload(queue, data);
    checkRepeat(options);
    // A key moved to another queue must not keep firing on the old one.
    for (const other of queueNames) {
      if (other !== queue) await this.#queue(other).removeJobScheduler(options.key);
    }
    const schedule =
      "cron" in options
        ? { pattern: options.cron, ...(options.tz ? { tz: options.tz } : {}) }
        : { every: options.everyMs };
    // A cron fire that fell due while no worker ran is dropped by the upsert below (it plans the
    // next fire from now); like the in-process queue, run it once instead, under its own fire id.
    const previous = "cron" in options ? await this.#queue(queue).getJobScheduler(options.key) : undefined;
    const missed =
      "cron" in options && previous?.pattern === options.cron && (previous.next ?? Infinity) < Date.now();
    await this.#queue(queue).upsertJobScheduler(options.key, schedule, {
      name: queue,
      data: payload,
      opts: { removeOnComplete: true, removeOnFail: KEEP_FAILED },
    });
    if (missed && previous?.next) {
      await this.enqueue(queue, payload, { jobId: cronFireJobId(options.key, new Date(previous.next)) });
    }
  }

  async unrepeat(key: string): Promise<boolean> {
    let removed = false;
    for (const queue of queueNames) {
      if (await this.#queue(queue).removeJobScheduler(key)) removed = true;
    }
    return removed;
  }

  async listRepeats(): Promise<RepeatInfo[]> {
    const all: RepeatInfo[] = [];
    for (const queue of queueNames) {
      for (const scheduler of await this.#queue(queue).getJobSchedulers()) {
        const info: RepeatInfo = {
          key: scheduler.key,
          queue,
          next: scheduler.next ? new Date(scheduler.next) : null,
        };
        if (scheduler.pattern) info.cron = scheduler.pattern;
        else info.everyMs = Number(scheduler.every);
        if (scheduler.tz) info.tz = scheduler.tz;
        all.push(info);
      }
    }
    return all;
  }

  async start(): Promise<void> {
    if (this.#closing) throw new QueueClosedError("start");
    if (this.#started) return;
    this.#started = true;
    for (const queue of this.#handlers.keys()) this.#startWorker(queue);
    await Promise.all([...this.#workers.values()].map((worker) => worker.waitUntilReady()));
  }

  close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing ??= this.#shutdown(options.graceMs ?? DEFAULT_GRACE_MS);
    return this.#closing;
  }

  async #shutdown(graceMs: number): Promise<void> {
    this.#stopping.abort(new Error("queue shutdown"));
    const workers = [...this.#workers.values()];
    const closed = Promise.allSettled(workers.map((worker) => worker.close()));
    if (!(await settleWithin(closed, graceMs))) {
      this.#aborting = true;
      for (const worker of workers) worker.cancelAllJobs(SHUTDOWN_REASON);
      await closed;
    }
    await Promise.allSettled([...this.#queues.values()].map((queue) => queue.close()));
    if (this.#connection.status !== "wait") await this.#connection.quit().catch(() => {});
    this.#connection.disconnect();
  }

  /** A failure of no single job: an outage is told once by #outage, anything else reported. */
  #infraError(error: unknown, queue: string): void {
    if (!this.#outage.error(error)) this.#onError(error, infraFailure(queue));
  }

  #queue(queue: QueueName): Queue {
    let bullQueue = this.#queues.get(queue);
    if (!bullQueue) {
      bullQueue = new Queue(queue, { connection: this.#connection, prefix: this.#prefix });
      bullQueue.on("error", (error) => this.#infraError(error, queue));
      this.#queues.set(queue, bullQueue);
    }
    return bullQueue;
  }

  #startWorker(queue: QueueName): void {
    const registration = this.#handlers.get(queue);
    if (!registration || this.#workers.has(queue)) return;
    const processor = (job: Job, _token?: string, signal?: AbortSignal) =>
      this.#process(queue, registration, job, signal ?? new AbortController().signal);
    const worker = new Worker(queue, processor, {
      connection: this.#connection,
      prefix: this.#prefix,
      concurrency: registration.concurrency,
      autorun: false,
      lockDuration: this.#lockDurationMs,
      stalledInterval: this.#stalledIntervalMs,
      // See the class comment: a stalled job is interrupted, not re-run, unless it resumes from durable state.
      maxStalledCount: registration.rerunInterrupted ? RERUN_INTERRUPTED_MAX_RUNS - 1 : 0,
    });
    worker.on("error", (error) => this.#infraError(error, queue));
    worker.on("failed", (job, error) => {
      const id = job?.id ? decodeJobId(job.id) : "-";
      // moveToFailed sets finishedOn only when no retry follows.
      const failure = { id, queue, attempt: job?.attemptsMade ?? 0, final: job?.finishedOn !== undefined };
      // A stall is a crash recovered here (onInterrupted records it), not a failure to report.
      if (error.message !== SHUTDOWN_REASON && error.message !== STALLED_REASON)
        this.#onError(error, failure);
      if (job && error.message === STALLED_REASON) {
        if (registration.rerunInterrupted) {
          const reason = `the worker stopped during each of this job's ${RERUN_INTERRUPTED_MAX_RUNS} runs; not run again`;
          void this.#interrupted(registration.onCrashLoop, queue, job, reason);
        } else {
          void this.#interrupted(
            registration.onInterrupted,
            queue,
            job,
            "the worker stopped while this job was running",
          );
        }
      }
    });
    this.#workers.set(queue, worker);
    worker.run().catch((error: unknown) => this.#infraError(error, queue));
  }

  async #process(queue: QueueName, registration: Registration, job: Job, signal: AbortSignal): Promise<void> {
    let data: unknown;
    try {
      data = parsePayload(queue, job.data);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    const id = job.id ? decodeJobId(job.id) : "-";
    const context = {
      id,
      queue,
      data,
      attempt: job.attemptsMade + 1,
      signal,
      stopping: this.#stopping.signal,
    };
    try {
      await untilAborted(registration.handler(context), signal);
    } catch (error) {
      if (signal.aborted && this.#aborting) {
        await this.#interrupted(
          registration.onInterrupted,
          queue,
          job,
          `shutdown: still running after the grace period`,
        );
        throw new UnrecoverableError(SHUTDOWN_REASON);
      }
      if (error instanceof UnrecoverableJobError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }

  async #interrupted(
    hook: Registration["onInterrupted"],
    queue: QueueName,
    job: Job,
    reason: string,
  ): Promise<void> {
    const id = job.id ? decodeJobId(job.id) : "-";
    try {
      const data = parsePayload(queue, job.data);
      await hook?.({ id, queue, data, attempt: job.attemptsMade + 1, reason });
    } catch (error) {
      this.#onError(error, { id, queue, attempt: job.attemptsMade + 1, final: true });
    }
  }
}

// BullMQ refuses custom ids that contain ":" or look like integers; ours may (e.g. "exec:42").
function encodeJobId(jobId: string): string {
  return `k_${encodeURIComponent(jobId)}`;
}

function decodeJobId(id: string): string {
  return id.startsWith("k_") ? decodeURIComponent(id.slice(2)) : id;
}
