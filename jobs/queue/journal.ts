/**
 * Durable record of in-process jobs, so a restart neither loses waiting jobs nor blindly re-runs
 * a job that was running when the process died. store/queue-journal.ts implements it on
 * `queue_jobs`; `createMemoryJobJournal` is for pure unit use (nothing survives the process).
 */
export type JournalStatus = "waiting" | "active" | "done" | "failed" | "interrupted" | "cancelled";

export interface JournalJob {
  id: string;
  queue: string;
  data: unknown;
  status: JournalStatus;
  /** Runs started so far. */
  attempts: number;
  maxAttempts: number;
  backoffMs: number;
  runAt: Date;
}

export interface JobJournal {
  /** A new waiting job. A finished row with the same id is replaced; a live one is left alone. */
  record(job: Omit<JournalJob, "status" | "attempts">): Promise<void>;
  /** The job starts a run: status active, attempts + 1. */
  markActive(id: string): Promise<void>;
  markDone(id: string): Promise<void>;
  /** retry null: failed for good; otherwise back to waiting until retry.runAt. */
  markFailed(id: string, error: string, retry: { runAt: Date } | null): Promise<void>;
  markInterrupted(id: string, reason: string): Promise<void>;
  /** A waiting job that will never run (its schedule was removed or changed). */
  markCancelled(id: string, reason: string): Promise<void>;
  /** Jobs waiting (delayed included) or active, oldest run_at first. */
  loadUnfinished(): Promise<JournalJob[]>;
  /** Deletes done and cancelled rows last touched before `olderThan`; returns how many. */
  pruneFinished(olderThan: Date): Promise<number>;
}

export function createMemoryJobJournal(): JobJournal {
  const rows = new Map<string, JournalJob & { updatedAt: Date; lastError: string | null }>();
  const update = (id: string, patch: Partial<JournalJob> & { lastError?: string | null }) => {
    const row = rows.get(id);
    if (row) rows.set(id, { ...row, ...patch, updatedAt: new Date() });
  };
  return {
    async record(job) {
      const existing = rows.get(job.id);
      if (existing && (existing.status === "waiting" || existing.status === "active")) return;
      rows.set(job.id, { ...job, status: "waiting", attempts: 0, updatedAt: new Date(), lastError: null });
    },
    async markActive(id) {
      const row = rows.get(id);
      if (row) update(id, { status: "active", attempts: row.attempts + 1 });
    },
    async markDone(id) {
      update(id, { status: "done" });
    },
    async markFailed(id, error, retry) {
      update(
        id,
        retry
          ? { status: "waiting", runAt: retry.runAt, lastError: error }
          : { status: "failed", lastError: error },
      );
    },
    async markInterrupted(id, reason) {
      update(id, { status: "interrupted", lastError: reason });
    },
    async markCancelled(id, reason) {
      if (rows.get(id)?.status === "waiting") update(id, { status: "cancelled", lastError: reason });
    },
    async loadUnfinished() {
      return [...rows.values()]
        .filter((r) => r.status === "waiting" || r.status === "active")
        .sort((a, b) => a.runAt.getTime() - b.runAt.getTime())
        .map(({ updatedAt: _u, lastError: _l, ...job }) => job);
    },
    async pruneFinished(olderThan) {
      let pruned = 0;
      for (const [id, row] of rows) {
        if ((row.status === "done" || row.status === "cancelled") && row.updatedAt < olderThan) {
          rows.delete(id);
          pruned++;
        }
      }
      return pruned;
    },
  };
}
