import type { Executor } from "./audit.ts";

import type { GoalStatus } from "./statuses.ts";

export type { GoalStatus } from "./statuses.ts";

export interface GoalRow {
  id: string;
  goal: string;
  status: string;
  summary: string | null;
  createdAt: Date;
}

/** Closes the active goal (if any) with a status and summary; returns it. */
export async function closeActiveGoal(
  db: Executor,
  sessionId: string,
  status: Exclude<GoalStatus, "active">,
  summary: string,
  now = new Date(),
): Promise<GoalRow | undefined> {
  const row = await db
    .updateTable("goals")
    .set({ status, summary, closed_at: now })
    .where("session_id", "=", sessionId)
    .where("status", "=", "active")
    .returningAll()
    .executeTakeFirst();
  return row
    ? { id: row.id, goal: row.goal, status: row.status, summary: row.summary, createdAt: row.created_at }
    : undefined;
}

/** Records a new active goal (history kept); the previous active one is closed as superseded. */
export async function recordGoal(
  db: Executor,
  sessionId: string,
  goal: string,
  now = new Date(),
): Promise<{ goal: GoalRow; superseded: GoalRow | undefined }> {
  const superseded = await closeActiveGoal(db, sessionId, "superseded", `superseded by: ${goal}`, now);
  const row = await db
    .insertInto("goals")
    .values({ session_id: sessionId, goal, summary: null, created_at: now, closed_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    goal: { id: row.id, goal: row.goal, status: row.status, summary: row.summary, createdAt: row.created_at },
    superseded,
  };
}

/** The newest goal recorded at or after `since` (a set_goal after a reopen). */
export async function goalSince(db: Executor, sessionId: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom("goals")
    .select("id")
    .where("session_id", "=", sessionId)
    .where("created_at", ">=", since)
    .executeTakeFirst();
  return row !== undefined;
}
