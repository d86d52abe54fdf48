import { redact } from "../../policy/redact.ts";
import type { QueueName, QueuePayload } from "../contracts.ts";

/** The queues and their payloads (jobs/contracts.ts), for a handler to name what it is handed. */
export type { QueueName, QueuePayload };

import { cronProblem } from "./cron.ts";

/** What a handler sees of one job. */
export interface JobContext<T> {
  id: string;
  queue: string;
  data: T;
  /** 1 on the first run, 2 on the first retry, ... */
  attempt: number;
  /** Aborted when the queue shuts down and the grace period is over: stop and return. */
  signal: AbortSignal;
  /**
   * Aborted as soon as the queue begins to close: take no new step, reach the next checkpoint
   * (durable state another process can resume from) and return within the grace period.
   */
  stopping: AbortSignal;
}

/** A job that was running when its process stopped (crash, or shutdown past the grace period). */
export interface InterruptedJob<T> {
  id: string;
  queue: string;
  data: T;
  attempt: number;
  reason: string;
}

export type JobHandler<T> = (job: JobContext<T>) => Promise<void>;

export interface RegisterOptions<T> {
  /** Jobs of this queue run at most this many at once in this process. Default 1. */
  concurrency?: number;
  /**
   * Called once for a job that was interrupted mid-run; the handler is NOT re-run for it.
   * Use it to record domain state (e.g. mark the execution interrupted). Default: none.
   */
  onInterrupted?: (job: InterruptedJob<T>) => Promise<void>;
  /**
   * A job whose process died mid-run is run again instead, for handlers that resume from durable
   * state (an agent turn): at most RERUN_INTERRUPTED_MAX_RUNS runs in all. onInterrupted is then
   * not called for it.
   */
  rerunInterrupted?: boolean;
  /**
   * With rerunInterrupted: the process died during every one of the job's allowed runs (the job
   * itself likely kills it). The job is not run again; this is called once instead, so whoever
   * waits for the job is told.
   */
  onCrashLoop?: (job: InterruptedJob<T>) => Promise<void>;
}

/** Runs in all (the first included) of a rerunInterrupted job whose process keeps dying under it. */
export const RERUN_INTERRUPTED_MAX_RUNS = 3;

export interface EnqueueOptions {
  /** Dedupe: while a job with this id is waiting or active, enqueueing it again adds nothing. */
  jobId?: string;
  /** Run no earlier than this many ms from now. Default 0. */
  delayMs?: number;
  /** Total runs allowed, the first included. Default 1 (no retry): retries must be asked for. */
  attempts?: number;
  /** Base of the exponential backoff between retries: backoffMs * 2^(attempt-1). Default 1000. */
  backoffMs?: number;
}

/**
 * A recurring job: every `everyMs`, or at the times of a cron expression (`cron`, 5 fields or 6
 * with seconds first, evaluated in `tz`, default UTC). `key` is the identity of the schedule:
 * repeating again with the same key replaces it, never duplicates it.
 */
export type RepeatOptions = { key: string; everyMs: number } | { key: string; cron: string; tz?: string };

export interface RepeatInfo {
  key: string;
  queue: string;
  everyMs?: number;
  cron?: string;
  tz?: string;
  /** When it fires next, when the adapter knows (cron repeats always). */
  next: Date | null;
}

/**
 * The queue port: the only thing the rest of the app sees of the job queue.
 *
 * Handlers must be idempotent against database state. A job can run more than once (retries,
 * and on BullMQ a lock lost to a long event-loop stall), so an execute handler checks that the
 * execution row is still `queued` before it runs anything.
 */
export interface QueuePort {
  readonly kind: "bullmq" | "in-process";
  register<Q extends QueueName>(
    queue: Q,
    handler: JobHandler<QueuePayload<Q>>,
    options?: RegisterOptions<QueuePayload<Q>>,
  ): void;
  /** Validates the payload (InvalidJobPayloadError) and returns the job id. */
  enqueue<Q extends QueueName>(queue: Q, data: QueuePayload<Q>, options?: EnqueueOptions): Promise<string>;
  /**
   * A recurring job (sweeps, schedules); idempotent by key. Cron repeats are durable on both
   * adapters: each fire is a job `repeat:<key>:<fire time in ms>` (its `JobContext.id`, the
   * fire's identity), and a restart neither loses a pending fire nor runs one twice.
   */
  repeat<Q extends QueueName>(queue: Q, data: QueuePayload<Q>, options: RepeatOptions): Promise<void>;
  /** Removes a recurring job and its pending fire; false when no repeat had this key. */
  unrepeat(key: string): Promise<boolean>;
  /** The recurring schedules known to this queue (for status output and tests). */
  listRepeats(): Promise<RepeatInfo[]>;
  /**
   * Start consuming registered queues. A producer-only process never calls it. Register every
   * handler first: jobs a crash left interrupted are reported to the onInterrupted hooks known
   * at this moment.
   */
  start(): Promise<void>;
  /**
   * Stop taking jobs, let running ones finish within graceMs (default 10 000), then abort them
   * (signal) and record them interrupted (onInterrupted). Idempotent.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export const DEFAULT_GRACE_MS = 10_000;

/** The job id of one cron fire; both adapters use it (BullMQ's job schedulers do natively). */
export function cronFireJobId(key: string, at: Date): string {
  return `repeat:${key}:${at.getTime()}`;
}

/** Checks a repeat's schedule before anything is stored: a bad cron or interval throws RangeError. */
export function checkRepeat(options: RepeatOptions): void {
  if ("cron" in options) {
    const problem = cronProblem(options.cron, options.tz);
    if (problem) throw new RangeError(`repeat "${options.key}": ${problem}`);
  } else if (!(options.everyMs > 0)) {
    throw new RangeError(`repeat "${options.key}": everyMs must be > 0`);
  }
}
export const DEFAULT_BACKOFF_MS = 1_000;

/** Delay before retry number `attempt` (1-based count of runs already made): jobs/retry.ts. */
export { backoffDelay } from "../retry.ts";

/** Which job a reported failure belongs to; `final` false means a retry is scheduled. */
export interface JobFailure {
  id: string;
  queue: string;
  attempt: number;
  final: boolean;
}

/** Reports a failure nobody awaits (a failed run, a failing hook, a lost connection). */
export type QueueErrorReporter = (error: unknown, job: JobFailure) => void;

export const reportToStderr: QueueErrorReporter = (error, job) => {
  const text = redact(error instanceof Error ? (error.stack ?? error.message) : String(error));
  const retry = job.final ? "" : " (will retry)";
  process.stderr.write(`job ${job.queue}/${job.id} attempt ${job.attempt} failed${retry}: ${text}\n`);
};

/** For failures that belong to no single job run. */
export function infraFailure(queue: string, id = "-"): JobFailure {
  return { id, queue, attempt: 0, final: true };
}
