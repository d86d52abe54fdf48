import type { Kysely } from "kysely";
import type { Executor } from "./audit.ts";
import { appendMessage, type StoredMessage } from "./messages.ts";
import type { Database, ScheduleRunsTable } from "./schema.ts";
import { createSession, type NewSession as NewScheduledSession, type Session } from "./sessions.ts";

export type ScheduleRunOutcome = ScheduleRunsTable["outcome"];
export type ScheduleThreadState = "deferred" | "posted" | "quiet";

export async function isSchedulePaused(db: Kysely<Database>, name: string): Promise<boolean> {
  const row = await db
    .selectFrom("schedule_state")
    .select("paused")
    .where("name", "=", name)
    .executeTakeFirst();
  return row?.paused ?? false;
}

/** Pauses or resumes; false when it already was in that state. */
export async function setSchedulePaused(
  db: Kysely<Database>,
  name: string,
  paused: boolean,
  by: string,
  now = new Date(),
): Promise<boolean> {
  const before = await isSchedulePaused(db, name);
  if (before === paused) return false;
  await db
    .insertInto("schedule_state")
    .values({ name, paused, changed_by: by, changed_at: now })
    .onConflict((oc) => oc.column("name").doUpdateSet({ paused, changed_by: by, changed_at: now }))
    .execute();
  return true;
}

export async function scheduleStates(db: Kysely<Database>) {
  return db.selectFrom("schedule_state").selectAll().execute();
}

/** Claims one fire; false when it was claimed (or recorded) before: a duplicate delivery. */
export async function claimScheduleRun(
  db: Kysely<Database>,
  run: { fireId: string; schedule: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto("schedule_runs")
    .values({ fire_id: run.fireId, schedule: run.schedule, session_id: null, outcome: "started" })
    .onConflict((oc) => oc.column("fire_id").doNothing())
    .returning("fire_id")
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function recordSkippedRun(
  db: Kysely<Database>,
  run: { fireId: string; schedule: string; outcome: "skipped_paused" | "skipped_unknown" },
): Promise<void> {
  await db
    .insertInto("schedule_runs")
    .values({
      fire_id: run.fireId,
      schedule: run.schedule,
      session_id: null,
      outcome: run.outcome,
      finished_at: new Date(),
    })
    .onConflict((oc) => oc.column("fire_id").doNothing())
    .execute();
}

/** Moves a run's thread out of `deferred` once (conditional): false when another writer did first. */
export async function settleRunThread(
  db: Kysely<Database>,
  fireId: string,
  to: { thread: Exclude<ScheduleThreadState, "deferred">; outcome?: ScheduleRunOutcome },
): Promise<boolean> {
  const result = await db
    .updateTable("schedule_runs")
    .set({
      thread_state: to.thread,
      ...(to.outcome ? { outcome: to.outcome, finished_at: new Date() } : {}),
    })
    .where("fire_id", "=", fireId)
    .where("thread_state", "=", "deferred")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The latest run of each schedule. */
export async function lastScheduleRuns(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("schedule_runs")
    .selectAll()
    .orderBy("fired_at", "desc")
    .limit(500)
    .execute();
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!latest.has(row.schedule)) latest.set(row.schedule, row);
  return latest;
}

/** The session a claimed fire started. */
export async function bindScheduleRunSession(db: Executor, fireId: string, sessionId: string): Promise<void> {
  await db
    .updateTable("schedule_runs")
    .set({ session_id: sessionId })
    .where("fire_id", "=", fireId)
    .execute();
}

/**
 * One fire of a schedule starts its task, in one transaction: the fire claimed (once), the session
 * and its first message exist together or not at all. Undefined when the fire was claimed before.
 */
export async function startScheduledRun(
  db: Kysely<Database>,
  run: { fireId: string; schedule: string; session: NewScheduledSession; brief: string },
): Promise<{ session: Session; message: StoredMessage } | undefined> {
  return db.transaction().execute(async (tx) => {
    if (!(await claimScheduleRun(tx, { fireId: run.fireId, schedule: run.schedule }))) return undefined;
    const session = await createSession(tx, run.session);
    await bindScheduleRunSession(tx, run.fireId, session.id);
    const message = await appendMessage(tx, {
      sessionId: session.id,
      role: "user",
      content: run.brief,
      author: `schedule:${run.schedule}`,
      platformEventId: run.fireId,
    });
    return { session, message };
  });
}
