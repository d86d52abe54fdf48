import { randomUUID } from "node:crypto";
import { isQueueName, type QueueName, type QueuePayload } from "../contracts.ts";
import { InvalidJobPayloadError, QueueClosedError, UnrecoverableJobError } from "./errors.ts";
import { createMemoryJobJournal, type JobJournal, type JournalJob } from "./journal.ts";
import { parsePayload } from "./payload.ts";
import {
  backoffDelay,
  DEFAULT_BACKOFF_MS,
  DEFAULT_GRACE_MS,
  type EnqueueOptions,
  infraFailure,
  type JobHandler,
  type QueueErrorReporter,
  type QueuePort,
  type RegisterOptions,
  type RepeatInfo,
  type RepeatOptions,
  reportToStderr,
} from "./port.ts";
import { settleWithin, untilAborted } from "./settle.ts";

export interface InProcessQueueOptions {
  /** Durable journal (store/queue-journal.ts); default in memory, so nothing survives a restart. */
  journal?: JobJournal;
  /** Where failed jobs and failing hooks are reported. Default: stderr. */
  onError?: QueueErrorReporter;
  /** Done journal rows older than this are pruned at start and hourly. Default one day. */
  keepDoneMs?: number;
}

interface Registration {
  handler: JobHandler<unknown>;
  concurrency: number;
  onInterrupted?: RegisterOptions<unknown>["onInterrupted"];
}

interface LiveJob {
  id: string;
  queue: QueueName;
  data: unknown;
  state: "waiting" | "active";
  attempts: number;
  maxAttempts: number;
  backoffMs: number;
  runAt: number;
  timer?: NodeJS.Timeout;
  controller?: AbortController;
  interrupted?: boolean;
}

const HOUR_MS = 3_600_000;

/**
 * The embedded queue: jobs run in this process, durable through a JobJournal. It assumes one
 * consuming process per database (several consumers need BullMQ): at start, a job the journal
 * shows `active` belongs to a process that died, so it is recorded interrupted, never re-run.
 */
export class InProcessQueue implements QueuePort {
  readonly kind = "in-process" as const;
  readonly #journal: JobJournal;
  readonly #onError: QueueErrorReporter;
  readonly #keepDoneMs: number;
  readonly #handlers = new Map<QueueName, Registration>();
  readonly #live = new Map<string, LiveJob>();
  readonly #ready = new Map<QueueName, LiveJob[]>();
  readonly #running = new Map<QueueName, number>();
  readonly #runs = new Set<Promise<void>>();
  readonly #repeats = new Map<string, RepeatInfo & { data: unknown; timer?: NodeJS.Timeout }>();
  #pruneTimer?: NodeJS.Timeout;
  #started = false;
  #closing: Promise<void> | null = null;

  constructor(options: InProcessQueueOptions = {}) {
    this.#journal = options.journal ?? createMemoryJobJournal();
    this.#onError = options.onError ?? reportToStderr;
    this.#keepDoneMs = options.keepDoneMs ?? 24 * HOUR_MS;
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
    });
    this.#pump(queue);
  }

  async enqueue<Q extends QueueName>(
    queue: Q,
    data: QueuePayload<Q>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    if (this.#closing) throw new QueueClosedError(`enqueue a "${queue}" job`);
    const payload = parsePayload(queue, data);
    const id = options.jobId ?? randomUUID();
    if (this.#live.has(id)) return id;
    const job: LiveJob = {
      id,
      queue,
      data: payload,
      state: "waiting",
      attempts: 0,
      maxAttempts: Math.max(1, options.attempts ?? 1),
      backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
      runAt: Date.now() + Math.max(0, options.delayMs ?? 0),
    };
    this.#live.set(id, job);
    try {
      await this.#journal.record({ ...job, runAt: new Date(job.runAt) });
    } catch (error) {
      this.#live.delete(id);
      throw error;
    }
    this.#schedule(job);
    return id;
  }

  async repeat<Q extends QueueName>(queue: Q, data: QueuePayload<Q>, options: RepeatOptions): Promise<void> {
    if (this.#closing) throw new QueueClosedError(`schedule "${options.key}"`);
    const payload = parsePayload(queue, data);
    if (!(options.everyMs > 0)) throw new RangeError(`repeat "${options.key}": everyMs must be > 0`);
    clearInterval(this.#repeats.get(options.key)?.timer);
    this.#repeats.set(options.key, { key: options.key, queue, everyMs: options.everyMs, data: payload });
    if (this.#started) this.#startRepeat(options.key);
  }

  async listRepeats(): Promise<RepeatInfo[]> {
    return [...this.#repeats.values()].map(({ key, queue, everyMs }) => ({ key, queue, everyMs }));
  }

  async start(): Promise<void> {
    if (this.#started) return;
    if (this.#closing) throw new QueueClosedError("start");
    this.#started = true;
    for (const job of this.#live.values()) this.#schedule(job);
    for (const row of await this.#journal.loadUnfinished()) {
      if (this.#live.has(row.id)) continue;
      if (!isQueueName(row.queue)) {
        await this.#journal.markFailed(row.id, `unknown queue "${row.queue}"`, null);
        continue;
      }
      const job = fromJournal(row, row.queue);
      if (row.status === "active") {
        await this.#recordInterrupted(job, "the process stopped while this job was running");
      } else {
        this.#live.set(job.id, job);
        this.#schedule(job);
      }
    }
    for (const key of this.#repeats.keys()) this.#startRepeat(key);
    await this.#prune();
    this.#pruneTimer = setInterval(() => void this.#prune(), HOUR_MS);
    this.#pruneTimer.unref();
  }

  close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing ??= this.#shutdown(options.graceMs ?? DEFAULT_GRACE_MS);
    return this.#closing;
  }

  async #shutdown(graceMs: number): Promise<void> {
    clearInterval(this.#pruneTimer);
    for (const repeat of this.#repeats.values()) clearInterval(repeat.timer);
    // Waiting and delayed jobs stay `waiting` in the journal: the next start runs them.
    for (const job of this.#live.values()) clearTimeout(job.timer);
    const runs = Promise.allSettled([...this.#runs]);
    if (await settleWithin(runs, graceMs)) return;
    const stillActive = [...this.#live.values()].filter((job) => job.state === "active");
    for (const job of stillActive) {
      job.interrupted = true;
      job.controller?.abort(new Error("queue shutdown"));
    }
    await Promise.all(
      stillActive.map((job) => this.#recordInterrupted(job, `shutdown: still running after ${graceMs} ms`)),
    );
    await runs;
  }

  #schedule(job: LiveJob): void {
    if (!this.#started || this.#closing) return;
    clearTimeout(job.timer);
    const delay = job.runAt - Date.now();
    if (delay > 0) {
      job.timer = setTimeout(() => {
        job.timer = undefined;
        this.#makeReady(job);
      }, delay);
    } else {
      this.#makeReady(job);
    }
  }

  #makeReady(job: LiveJob): void {
    const ready = this.#ready.get(job.queue) ?? [];
    ready.push(job);
    this.#ready.set(job.queue, ready);
    this.#pump(job.queue);
  }

  #pump(queue: QueueName): void {
    const registration = this.#handlers.get(queue);
    const ready = this.#ready.get(queue);
    if (!this.#started || this.#closing || !registration || !ready) return;
    while ((this.#running.get(queue) ?? 0) < registration.concurrency && ready.length > 0) {
      const job = ready.shift()!;
      this.#running.set(queue, (this.#running.get(queue) ?? 0) + 1);
      const run = this.#run(job, registration).finally(() => {
        this.#runs.delete(run);
        this.#running.set(queue, (this.#running.get(queue) ?? 1) - 1);
        this.#pump(queue);
      });
      this.#runs.add(run);
    }
  }

  async #run(job: LiveJob, registration: Registration): Promise<void> {
    const controller = new AbortController();
    job.controller = controller;
    job.state = "active";
    job.attempts += 1;
    let failure: { error: unknown } | null = null;
    try {
      await this.#journal.markActive(job.id);
      const data = parsePayload(job.queue, job.data);
      const context = {
        id: job.id,
        queue: job.queue,
        data,
        attempt: job.attempts,
        signal: controller.signal,
      };
      await untilAborted(registration.handler(context), controller.signal);
    } catch (error) {
      failure = { error };
    }
    if (job.interrupted) return; // #shutdown recorded it.
    try {
      await this.#finish(job, failure);
    } catch (error) {
      this.#onError(error, { id: job.id, queue: job.queue, attempt: job.attempts, final: true });
    }
  }

  async #finish(job: LiveJob, failure: { error: unknown } | null): Promise<void> {
    if (!failure) {
      this.#live.delete(job.id);
      await this.#journal.markDone(job.id);
      return;
    }
    const { error } = failure;
    const permanent =
      error instanceof UnrecoverableJobError ||
      error instanceof InvalidJobPayloadError ||
      job.attempts >= job.maxAttempts;
    // Journal first, report second: whoever sees the report finds the journal already updated.
    const report = { id: job.id, queue: job.queue, attempt: job.attempts, final: permanent };
    if (permanent) {
      this.#live.delete(job.id);
      await this.#journal.markFailed(job.id, describe(error), null);
      this.#onError(error, report);
      return;
    }
    job.state = "waiting";
    job.runAt = Date.now() + backoffDelay(job.backoffMs, job.attempts);
    await this.#journal.markFailed(job.id, describe(error), { runAt: new Date(job.runAt) });
    this.#onError(error, report);
    this.#schedule(job);
  }

  async #recordInterrupted(job: LiveJob, reason: string): Promise<void> {
    this.#live.delete(job.id);
    try {
      await this.#journal.markInterrupted(job.id, reason);
      const hook = this.#handlers.get(job.queue)?.onInterrupted;
      if (hook) {
        await hook({ id: job.id, queue: job.queue, data: job.data, attempt: job.attempts, reason });
      }
    } catch (error) {
      this.#onError(error, { id: job.id, queue: job.queue, attempt: job.attempts, final: true });
    }
  }

  #startRepeat(key: string): void {
    const repeat = this.#repeats.get(key);
    if (!repeat || this.#closing) return;
    clearInterval(repeat.timer);
    repeat.timer = setInterval(() => {
      this.enqueue(repeat.queue as QueueName, repeat.data as never, { jobId: `repeat:${key}` }).catch(
        (error: unknown) => {
          if (!(error instanceof QueueClosedError))
            this.#onError(error, infraFailure(repeat.queue, `repeat:${key}`));
        },
      );
    }, repeat.everyMs);
  }

  async #prune(): Promise<void> {
    try {
      await this.#journal.pruneFinished(new Date(Date.now() - this.#keepDoneMs));
    } catch (error) {
      this.#onError(error, infraFailure("journal", "prune"));
    }
  }
}

function fromJournal(row: JournalJob, queue: QueueName): LiveJob {
  return {
    id: row.id,
    queue,
    data: row.data,
    state: "waiting",
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    backoffMs: row.backoffMs,
    runAt: row.runAt.getTime(),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
