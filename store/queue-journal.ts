import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.ts";
import type { JobStatus } from "./statuses.ts";

// Implements jobs/queue/journal.ts `JobJournal` structurally (store/ imports nothing above it).

export interface QueueJournalRow {
  id: string;
  queue: string;
  data: unknown;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  backoffMs: number;
  runAt: Date;
}

const touch = { updated_at: sql<Date>`now()` };

/** The in-process queue's durable journal over `queue_jobs`. */
export class KyselyJobJournal {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async record(job: Omit<QueueJournalRow, "status" | "attempts">): Promise<void> {
    const row = {
      queue: job.queue,
      name: job.queue,
      data: JSON.stringify(job.data),
      status: "waiting" as const,
      attempts: 0,
      max_attempts: job.maxAttempts,
      backoff_ms: job.backoffMs,
      run_at: job.runAt,
      last_error: null,
    };
    await this.#db
      .insertInto("queue_jobs")
      .values({ id: job.id, ...row })
      .onConflict((oc) =>
        oc
          .column("id")
          .doUpdateSet({ ...row, ...touch })
          .where("queue_jobs.status", "not in", ["waiting", "active"]),
      )
      .execute();
  }

  async markActive(id: string): Promise<void> {
    await this.#db
      .updateTable("queue_jobs")
      .set({ status: "active", attempts: sql<number>`attempts + 1`, ...touch })
      .where("id", "=", id)
      .execute();
  }

  async markDone(id: string): Promise<void> {
    await this.#db
      .updateTable("queue_jobs")
      .set({ status: "done", ...touch })
      .where("id", "=", id)
      .execute();
  }

  async markFailed(id: string, error: string, retry: { runAt: Date } | null): Promise<void> {
    const next = retry ? { status: "waiting" as const, run_at: retry.runAt } : { status: "failed" as const };
    await this.#db
      .updateTable("queue_jobs")
      .set({ ...next, last_error: error, ...touch })
      .where("id", "=", id)
      .execute();
  }

  async markInterrupted(id: string, reason: string): Promise<void> {
    await this.#db
      .updateTable("queue_jobs")
      .set({ status: "interrupted", last_error: reason, ...touch })
      .where("id", "=", id)
      .execute();
  }

  async markCancelled(id: string, reason: string): Promise<void> {
    await this.#db
      .updateTable("queue_jobs")
      .set({ status: "cancelled", last_error: reason, ...touch })
      .where("id", "=", id)
      .where("status", "=", "waiting")
      .execute();
  }

  async loadUnfinished(): Promise<QueueJournalRow[]> {
    const rows = await this.#db
      .selectFrom("queue_jobs")
      .selectAll()
      .where("status", "in", ["waiting", "active"])
      .orderBy("run_at")
      .orderBy("created_at")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      queue: r.queue,
      data: r.data,
      status: r.status,
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
      backoffMs: r.backoff_ms,
      runAt: r.run_at,
    }));
  }

  async pruneFinished(olderThan: Date): Promise<number> {
    const result = await this.#db
      .deleteFrom("queue_jobs")
      .where("status", "in", ["done", "cancelled"])
      .where("updated_at", "<", olderThan)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Jobs of `queues` waiting (due before `horizon`) or running, oldest first: a quiet check's view. */
export async function busyJobs(
  db: Kysely<Database>,
  queues: readonly string[],
  horizon: Date,
): Promise<{ id: string; status: JobStatus; attempts: number }[]> {
  return db
    .selectFrom("queue_jobs")
    .select(["id", "status", "attempts"])
    .where("queue", "in", [...queues])
    .where("status", "in", ["waiting", "active"])
    .where("run_at", "<=", horizon)
    .orderBy("id")
    .execute();
}
