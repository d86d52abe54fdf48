import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, Session } from "./schema.ts";

export { SESSION_STATUSES, type SessionStatus, TERMINAL_SESSION_STATUSES } from "./statuses.ts";

export interface SessionAddress {
  platform: string;
  room: string;
  thread: string;
}

/** A session is bound to one chat thread; creating it twice for the same thread returns the first. */
export async function createSession(
  db: Kysely<Database>,
  address: SessionAddress & { createdBy: string; goal?: string; principal?: string },
): Promise<Session> {
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
