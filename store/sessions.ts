import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { OPEN_EXECUTION_STATUSES } from "./executions.ts";
import type { Database, Session } from "./schema.ts";
import type { Outcome } from "./statuses.ts";

export type { Session } from "./schema.ts";

export { SESSION_STATUSES, type SessionStatus, TERMINAL_SESSION_STATUSES } from "./statuses.ts";

export interface SessionAddress {
  platform: string;
  room: string;
  thread: string;
}

/** A session is bound to one chat thread; creating it twice for the same thread returns the first. */
/** What a new session is created with: its thread, who started it, its goal and owner. */
export type NewSession = SessionAddress & { createdBy: string; goal?: string; principal?: string };

export async function createSession(db: Kysely<Database>, address: NewSession): Promise<Session> {
  const inserted = await db
    .insertInto("sessions")
    .values({
      id: randomUUID(),
      platform: address.platform,
      room: address.room,
      thread: address.thread,
      created_by: address.createdBy,
      ...(address.principal ? { principal: address.principal } : {}),
      goal: address.goal ?? null,
      outcome: null,
      summary: null,
    })
    .onConflict((oc) => oc.columns(["platform", "room", "thread"]).doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? (await findSessionByThread(db, address))!;
}

export async function getSession(db: Kysely<Database>, id: string): Promise<Session | undefined> {
  return db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Where a session's chat goes, and the scheduled run it belongs to (if it is one). */
export interface SessionChatPlace extends SessionAddress {
  scheduleRun: { fireId: string; schedule: string; threadState: "deferred" | "posted" | "quiet" } | null;
}

/**
 * The chat renderer's one read per domain event: the session's platform, room and thread with its
 * scheduled run (schedule_runs.session_id is unique), instead of the whole session row and the run apart.
 */
export async function sessionChatPlace(
  db: Kysely<Database>,
  id: string,
): Promise<SessionChatPlace | undefined> {
  const row = await db
    .selectFrom("sessions as s")
    .leftJoin("schedule_runs as r", "r.session_id", "s.id")
    .select(["s.platform", "s.room", "s.thread", "r.fire_id", "r.schedule", "r.thread_state"])
    .where("s.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    platform: row.platform,
    room: row.room,
    thread: row.thread,
    scheduleRun:
      row.fire_id === null || row.schedule === null || row.thread_state === null
        ? null
        : { fireId: row.fire_id, schedule: row.schedule, threadState: row.thread_state },
  };
}

export async function findSessionByThread(
  db: Kysely<Database>,
  address: SessionAddress,
): Promise<Session | undefined> {
  return db
    .selectFrom("sessions")
    .selectAll()
    .where("platform", "=", address.platform)
    .where("room", "=", address.room)
    .where("thread", "=", address.thread)
    .executeTakeFirst();
}

/** Records activity (the idle sweep measures from here) and clears a pending nudge. */
export async function touchSession(db: Kysely<Database>, id: string, now: Date = new Date()): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ last_activity_at: now, updated_at: now, nudged_at: null })
    .where("id", "=", id)
    .execute();
}

/**
 * Read-only research before any plan is capped; each run (or fan-out) takes one slot. Check and
 * count are one conditional UPDATE, so parallel calls cannot overshoot the cap. False: no slot left.
 */
export async function takePreplanSlot(db: Kysely<Database>, id: string, cap: number): Promise<boolean> {
  const row = await db
    .updateTable("sessions")
    .set((eb) => ({ preplan_read_only_calls: eb("preplan_read_only_calls", "+", 1) }))
    .where("id", "=", id)
    .where("preplan_read_only_calls", "<", cap)
    .returning("preplan_read_only_calls")
    .executeTakeFirst();
  return row !== undefined;
}

/** The principal that owns the session (policy/principal.ts), or undefined for an unknown session. */
export async function sessionPrincipal(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db.selectFrom("sessions").select("principal").where("id", "=", id).executeTakeFirst();
  return row?.principal;
}

/** What `whoami` shows of a session: its id, status, goal and where it lives. */
export async function sessionIdentity(
  db: Kysely<Database>,
  id: string,
): Promise<Pick<Session, "id" | "status" | "goal" | "platform" | "room"> | undefined> {
  return db
    .selectFrom("sessions")
    .select(["id", "status", "goal", "platform", "room"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The idle sweep's nudge, once: false when the session was nudged already. */
export async function markNudged(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const marked = await db
    .updateTable("sessions")
    .set({ nudged_at: now })
    .where("id", "=", id)
    .where("nudged_at", "is", null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** Remembers the newest message the model was shown (never moving back), so later input counts as new. */
export async function markMessageSeen(db: Kysely<Database>, id: string, messageId: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ seen_message_id: messageId })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("seen_message_id", "is", null), eb("seen_message_id", "<", messageId)]))
    .execute();
}

/**
 * `executing` sessions of `principal` idle since `cutoff`: nobody holds their turn (or its lease ran
 * out by `now`), and none waits for an approval, a running command or an answer (the idle sweep).
 */
export async function idleExecutingSessions(
  db: Kysely<Database>,
  query: { principal: string; cutoff: Date; now: Date },
): Promise<Pick<Session, "id" | "nudged_at">[]> {
  return db
    .selectFrom("sessions as s")
    .select(["s.id", "s.nudged_at"])
    .where("s.status", "=", "executing")
    .where("s.principal", "=", query.principal)
    .where("s.last_activity_at", "<=", query.cutoff)
    .where((eb) => eb.or([eb("s.turn_owner", "is", null), eb("s.turn_expires_at", "<", query.now)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("approvals as a")
            .select(sql`1`.as("one"))
            .whereRef("a.session_id", "=", "s.id")
            .where("a.status", "=", "pending"),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("executions as e")
            .select(sql`1`.as("one"))
            .whereRef("e.session_id", "=", "s.id")
            .where("e.status", "in", [...OPEN_EXECUTION_STATUSES]),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("questions as q")
            .select(sql`1`.as("one"))
            .whereRef("q.session_id", "=", "s.id")
            .where("q.status", "=", "open"),
        ),
      ),
    )
    .execute();
}

/**
 * Sessions of `principal` waiting for a plan decision or executing one, with no turn held or owed:
 * where an approved plan's consent turn may never have begun. With `decidedBefore`, only those whose
 * plan was approved before it.
 */
export async function sessionsAfterPlanDecision(
  db: Kysely<Database>,
  query: { principal: string; decidedBefore?: Date },
): Promise<string[]> {
  let select = db
    .selectFrom("sessions")
    .select("id")
    .where("status", "in", ["awaiting_approval", "executing"])
    .where("principal", "=", query.principal)
    .where("turn_owner", "is", null)
    .where("turn_pending", "=", false);
  const { decidedBefore } = query;
  if (decidedBefore) {
    select = select.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("plans as p")
          .select("p.generation")
          .whereRef("p.session_id", "=", "sessions.id")
          .where("p.status", "=", "approved")
          .where("p.decided_at", "<", decidedBefore),
      ),
    );
  }
  return (await select.execute()).map((row) => row.id);
}

/** Sessions closed with an outcome since `since` (and before `before`, when given). */
export async function recentlyClosedSessions(
  db: Kysely<Database>,
  query: { since: Date; before?: Date },
): Promise<{ id: string; outcome: Outcome }[]> {
  let select = db
    .selectFrom("sessions")
    .select(["id", "outcome"])
    .where("status", "in", ["done", "failed"])
    .where("outcome", "is not", null)
    .where("closed_at", ">=", query.since);
  if (query.before) select = select.where("closed_at", "<", query.before);
  const rows = await select.execute();
  return rows.flatMap((row) => (row.outcome ? [{ id: row.id, outcome: row.outcome }] : []));
}

/** A deferred thread posted at last: the session lives in it from now on. */
export async function bindSessionThread(db: Kysely<Database>, id: string, thread: string): Promise<void> {
  await db.updateTable("sessions").set({ thread }).where("id", "=", id).execute();
}

/** The summary complete_task recorded, or undefined. */
export async function sessionSummary(db: Kysely<Database>, id: string): Promise<string | null | undefined> {
  const row = await db.selectFrom("sessions").select("summary").where("id", "=", id).executeTakeFirst();
  return row?.summary;
}

/** Whether anything in the session needed an operator: a plan to approve, an approval, a question. */
export async function sessionAskedOperator(db: Kysely<Database>, id: string): Promise<boolean> {
  const plan = await db
    .selectFrom("plans")
    .select("generation")
    .where("session_id", "=", id)
    .where("needs_approval", "=", true)
    .executeTakeFirst();
  const approval = await db
    .selectFrom("approvals")
    .select("id")
    .where("session_id", "=", id)
    .executeTakeFirst();
  const question = await db
    .selectFrom("questions")
    .select("id")
    .where("session_id", "=", id)
    .executeTakeFirst();
  return plan !== undefined || approval !== undefined || question !== undefined;
}
