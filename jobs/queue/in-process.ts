import { randomUUID } from "node:crypto";
import { isQueueName, type QueueName, type QueuePayload } from "../contracts.ts";
import { nextCronFire } from "./cron.ts";
import { InvalidJobPayloadError, QueueClosedError, UnrecoverableJobError } from "./errors.ts";
import { createMemoryJobJournal, type JobJournal, type JournalJob } from "./journal.ts";
import { parsePayload } from "./payload.ts";
import {
  backoffDelay,
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
  rerunInterrupted: boolean;
  onCrashLoop?: RegisterOptions<unknown>["onCrashLoop"];
}

interface IntervalRepeat {
  key: string;
  queue: QueueName;
  everyMs: number;
  data: unknown;
  timer?: NodeJS.Timeout;
}

interface CronRepeat {
  key: string;
  queue: QueueName;
  cron: string;
  tz?: string;
  data: unknown;
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
/** The longest delay setTimeout keeps (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

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
  readonly #repeats = new Map<string, IntervalRepeat>();
  readonly #cronRepeats = new Map<string, CronRepeat>();
  #pruneTimer?: NodeJS.Timeout;
  readonly #stopping = new AbortController();
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
      rerunInterrupted: options.rerunInterrupted ?? false,
      onCrashLoop: options.onCrashLoop as Registration["onCrashLoop"],
    });
    this.#pump(queue);
  }

  async enqueue<Q extends QueueName>(
    queue: Q,
    data: QueuePayload<Q>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    return this.#add(queue, data, options, Date.now() + Math.max(0, options.delayMs ?? 0));
  }

  async #add<Q extends QueueName>(
    queue: Q,
    data: QueuePayload<Q>,
    options: EnqueueOptions,
    runAt: number,
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
      runAt,
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
    checkRepeat(options);
    await this.unrepeat(options.key, { keepPendingFire: "cron" in options });
    if ("cron" in options) {
      const repeat: CronRepeat = { key: options.key, queue, cron: options.cron, data: payload };
      if (options.tz) repeat.tz = options.tz;
      this.#cronRepeats.set(options.key, repeat);
      if (this.#started) await this.#armCron(repeat);
      return;
    }
    this.#repeats.set(options.key, { key: options.key, queue, everyMs: options.everyMs, data: payload });
    if (this.#started) this.#startRepeat(options.key);
  }

  async unrepeat(key: string, options: { keepPendingFire?: boolean } = {}): Promise<boolean> {
    clearInterval(this.#repeats.get(key)?.timer);
    const known = this.#repeats.delete(key) || this.#cronRepeats.delete(key);
    if (!options.keepPendingFire) await this.#cancelFires(key, () => true, "the schedule was removed");
    return known;
  }

  async listRepeats(): Promise<RepeatInfo[]> {
    const intervals = [...this.#repeats.values()].map(
      ({ key, queue, everyMs }): RepeatInfo => ({ key, queue, everyMs, next: null }),
    );
    const crons = [...this.#cronRepeats.values()].map((repeat): RepeatInfo => {
      const info: RepeatInfo = { key: repeat.key, queue: repeat.queue, cron: repeat.cron, next: null };
      if (repeat.tz) info.tz = repeat.tz;
      const pending = this.#pendingFires(repeat.key).map((job) => job.runAt);
      info.next = new Date(pending.length > 0 ? Math.min(...pending) : this.#nextFire(repeat).getTime());
      return info;
    });
    return [...intervals, ...crons];
  }

  async start(): Promise<void> {
    if (this.#started) return;
    if (this.#closing) throw new QueueClosedError("start");
    this.#started = true;
    for (const row of await this.#journal.loadUnfinished()) {
      if (!isQueueName(row.queue)) {
        await this.#journal.markFailed(row.id, `unknown queue "${row.queue}"`, null);
        continue;
      }
      const registration = this.#handlers.get(row.queue);
      const twin = this.#live.get(row.id);
      // Enqueued again before start (same id): it runs; the handler checks durable state. A job that
      // resumes (rerunInterrupted) keeps the journal's count of runs, so a crash loop still ends.
      if (twin && !registration?.rerunInterrupted) continue;
      const job = twin ?? fromJournal(row, row.queue);
      job.attempts = Math.max(job.attempts, row.attempts);
      this.#live.set(job.id, job);
      if (row.status !== "active") continue;
      if (!registration?.rerunInterrupted) {
        await this.#recordInterrupted(job, "the process stopped while this job was running");
      } else if (row.attempts >= RERUN_INTERRUPTED_MAX_RUNS) {
        await this.#recordCrashLoop(job, registration);
      }
    }
    for (const job of this.#live.values()) this.#schedule(job);
    for (const key of this.#repeats.keys()) this.#startRepeat(key);
    for (const repeat of this.#cronRepeats.values()) await this.#armCron(repeat);
    await this.#prune();
    this.#pruneTimer = setInterval(() => void this.#prune(), HOUR_MS);
    this.#pruneTimer.unref();
  }

  close(options: { graceMs?: number } = {}): Promise<void> {
    this.#closing ??= this.#shutdown(options.graceMs ?? DEFAULT_GRACE_MS);
    return this.#closing;
  }

  async #shutdown(graceMs: number): Promise<void> {
    this.#stopping.abort(new Error("queue shutdown"));
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
      // setTimeout holds at most ~24.8 days (a longer delay fires at once): wait in steps.
      job.timer = setTimeout(
        () => {
          job.timer = undefined;
          if (job.runAt > Date.now()) this.#schedule(job);
          else this.#makeReady(job);
        },
        Math.min(delay, MAX_TIMER_MS),
      );
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
    const cron = this.#cronOf(job);
    if (cron) await this.#armCron(cron, new Date(Math.max(Date.now(), job.runAt)));
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
        stopping: this.#stopping.signal,
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

  /** The process died during every run this job was allowed: recorded interrupted, never run again. */
  async #recordCrashLoop(job: LiveJob, registration: Registration): Promise<void> {
    this.#live.delete(job.id);
    const reason = `the process stopped during each of this job's ${job.attempts} runs; not run again`;
    try {
      await this.#journal.markInterrupted(job.id, reason);
      await registration.onCrashLoop?.({
        id: job.id,
        queue: job.queue,
        data: job.data,
        attempt: job.attempts,
        reason,
      });
    } catch (error) {
      this.#onError(error, { id: job.id, queue: job.queue, attempt: job.attempts, final: true });
    }
  }

  #startRepeat(key: string): void {
    const repeat = this.#repeats.get(key);
    if (!repeat || this.#closing) return;
    clearInterval(repeat.timer);
    repeat.timer = setInterval(() => {
      this.enqueue(repeat.queue, repeat.data as never, { jobId: `repeat:${key}` }).catch((error: unknown) => {
        if (!(error instanceof QueueClosedError))
          this.#onError(error, infraFailure(repeat.queue, `repeat:${key}`));
      });
    }, repeat.everyMs);
  }

  /**
   * The durable timer of a cron repeat is its next fire as a delayed job in the journal. Arming
   * is idempotent (the job id is the fire time), so a restart that arms again adds nothing;
   * a pending fire at another future time (the expression changed) is cancelled. A fire whose
   * time passed while no process ran stays and runs once at start.
   */
  async #armCron(repeat: CronRepeat, after = new Date()): Promise<void> {
    if (this.#closing) return;
    const next = this.#nextFire(repeat, after);
    const id = cronFireJobId(repeat.key, next);
    try {
      await this.#cancelFires(
        repeat.key,
        (job) => job.id !== id && job.runAt > after.getTime(),
        "the schedule changed",
      );
      await this.#add(repeat.queue, repeat.data as never, { jobId: id }, next.getTime());
    } catch (error) {
      if (!(error instanceof QueueClosedError)) this.#onError(error, infraFailure(repeat.queue, id));
    }
  }

  #nextFire(repeat: CronRepeat, after = new Date()): Date {
    return nextCronFire(repeat.cron, { after, ...(repeat.tz ? { tz: repeat.tz } : {}) });
  }

  #cronOf(job: LiveJob): CronRepeat | undefined {
    for (const repeat of this.#cronRepeats.values()) {
      if (repeat.queue === job.queue && job.id.startsWith(fireIdPrefix(repeat.key))) return repeat;
    }
    return undefined;
  }

  #pendingFires(key: string): LiveJob[] {
    const prefix = fireIdPrefix(key);
    return [...this.#live.values()].filter((job) => job.state === "waiting" && job.id.startsWith(prefix));
  }

  async #cancelFires(key: string, which: (job: LiveJob) => boolean, reason: string): Promise<void> {
    for (const job of this.#pendingFires(key).filter(which)) {
      clearTimeout(job.timer);
      this.#live.delete(job.id);
      const ready = this.#ready.get(job.queue);
      if (ready?.includes(job)) ready.splice(ready.indexOf(job), 1);
      await this.#journal.markCancelled(job.id, reason);
    }
  }

  async #prune(): Promise<void> {
    try {
      await this.#journal.pruneFinished(new Date(Date.now() - this.#keepDoneMs));
    } catch (error) {
      this.#onError(error, infraFailure("journal", "prune"));
    }
  }
}

/** Fire ids of a cron repeat: `repeat:<key>:<ms>` (the `:` after the key keeps `a` and `ab` apart). */
function fireIdPrefix(key: string): string {
  return `repeat:${key}:`;
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
