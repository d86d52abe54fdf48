import { type Kysely, sql } from "kysely";
import type { QueuePort } from "../../jobs/queue/port.ts";
import type { Database } from "../../store/schema.ts";

export interface DispatchReport {
  /** Sessions whose investigation started now. */
  started: string[];
  /** Investigations that reported (plan, question, or closed) and freed their slot. */
  reported: number;
  /** Waiting investigations dropped because their alert resolved first. */
  skipped: number;
}

/** Serialises dispatchers on Postgres (several `oikos worker` processes); PGlite has one connection anyway. */
const LOCK_KEY = 0x0a1e_47d1;

/**
 * Starts waiting alert investigations, oldest first, while fewer than `maxConcurrent` run. An
 * investigation holds its slot until its session has a plan or an open question, or closes: the
 * agent's research is what the cap bounds, not the operator's time to answer. Runs in one
 * transaction under an advisory lock, so two dispatchers never overfill the slots; the agent
 * turns are enqueued after it commits.
 */
export async function dispatchInvestigations(
  deps: { db: Kysely<Database>; queue: QueuePort; dialect: "postgres" | "pglite" },
  maxConcurrent: number,
): Promise<DispatchReport> {
  const report = await deps.db.transaction().execute(async (tx) => {
    if (deps.dialect === "postgres") await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(tx);
    const reported = await tx
      .updateTable("alert_groups")
      .set({ investigation: "reported", updated_at: new Date() })
      .where("investigation", "=", "investigating")
      .where((eb) =>
        eb.or([
          eb("session_id", "is", null),
          eb.exists(
            eb
              .selectFrom("sessions")
              .select("sessions.id")
              .whereRef("sessions.id", "=", "alert_groups.session_id")
              .where("sessions.status", "in", ["done", "failed"]),
          ),
          eb.exists(
            eb
              .selectFrom("plans")
              .select("plans.session_id")
              .whereRef("plans.session_id", "=", "alert_groups.session_id"),
          ),
          eb.exists(
            eb
              .selectFrom("questions")
              .select("questions.id")
              .whereRef("questions.session_id", "=", "alert_groups.session_id")
              .where("questions.status", "=", "open"),
          ),
        ]),
      )
      .executeTakeFirst();
    const skipped = await tx
      .updateTable("alert_groups")
      .set({ investigation: "skipped", updated_at: new Date() })
      .where("investigation", "=", "waiting")
      .where("status", "=", "resolved")
      .executeTakeFirst();
    const running = await tx
      .selectFrom("alert_groups")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("investigation", "=", "investigating")
      .executeTakeFirstOrThrow();
    const free = maxConcurrent - Number(running.n);
    const started: string[] = [];
    if (free > 0) {
      const next = await tx
        .selectFrom("alert_groups")
        .select(["id", "session_id"])
        .where("investigation", "=", "waiting")
        .where("session_id", "is not", null)
        .orderBy("first_seen_at")
        .limit(free)
        .execute();
      for (const group of next) {
        await tx
          .updateTable("alert_groups")
          .set({ investigation: "investigating", updated_at: new Date() })
          .where("id", "=", group.id)
          .execute();
        started.push(group.session_id!);
      }
    }
    return {
      started,
      reported: Number(reported.numUpdatedRows),
      skipped: Number(skipped.numUpdatedRows),
    };
  });
  for (const sessionId of report.started) {
    await deps.queue.enqueue("agent-turn", { sessionId, reason: "message" });
  }
  return report;
}
