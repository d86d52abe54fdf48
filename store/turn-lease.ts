import type { Executor } from "./audit.ts";

/**
 * One agent turn at a time per session, across processes: a lease on the session row taken with a
 * conditional UPDATE. A request that finds the lease held marks `turn_pending`, so the holder runs one
 * more turn before it lets go (requests merge instead of racing).
 */
export type AcquireResult = "acquired" | "merged" | "busy" | "missing";

export async function acquireTurn(
  db: Executor,
  sessionId: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
  options: { merge?: boolean } = {},
): Promise<AcquireResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = await db
      .updateTable("sessions")
      .set({ turn_owner: owner, turn_expires_at: new Date(now.getTime() + leaseMs), turn_pending: false })
      .where("id", "=", sessionId)
      .where((eb) => eb.or([eb("turn_owner", "is", null), eb("turn_expires_at", "<", now)]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) > 0) return "acquired";
    if (options.merge === false) {
      const exists = await db
        .selectFrom("sessions")
        .select("id")
        .where("id", "=", sessionId)
        .executeTakeFirst();
      return exists ? "busy" : "missing";
    }
    const merged = await db
      .updateTable("sessions")
      .set({ turn_pending: true })
      .where("id", "=", sessionId)
      .where("turn_owner", "is not", null)
      .where("turn_expires_at", ">=", now)
      .executeTakeFirst();
    if (Number(merged.numUpdatedRows) > 0) return "merged";
    const exists = await db
      .selectFrom("sessions")
      .select("id")
      .where("id", "=", sessionId)
      .executeTakeFirst();
    if (!exists) return "missing";
    // The holder let go between the two statements: try to take it again.
  }
  return "merged";
}

/** Extends the lease while a long turn runs; false when it was lost (expired and taken by another). */
export async function renewTurn(
  db: Executor,
  sessionId: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({ turn_expires_at: new Date(now.getTime() + leaseMs) })
    .where("id", "=", sessionId)
    .where("turn_owner", "=", owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Lets go of the lease, unless a request was merged meanwhile: then the pending flag is consumed and
 * "again" tells the holder to run one more turn (it keeps the lease).
 */
export async function releaseTurn(
  db: Executor,
  sessionId: string,
  owner: string,
): Promise<"released" | "again"> {
  for (;;) {
    const again = await db
      .updateTable("sessions")
      .set({ turn_pending: false })
      .where("id", "=", sessionId)
      .where("turn_owner", "=", owner)
      .where("turn_pending", "=", true)
      .executeTakeFirst();
    if (Number(again.numUpdatedRows) > 0) return "again";
    const released = await db
      .updateTable("sessions")
      .set({ turn_owner: null, turn_expires_at: null })
      .where("id", "=", sessionId)
      .where("turn_owner", "=", owner)
      .where("turn_pending", "=", false)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) > 0) return "released";
    const row = await db
      .selectFrom("sessions")
      .select("turn_owner")
      .where("id", "=", sessionId)
      .executeTakeFirst();
    if (row?.turn_owner !== owner) return "released";
  }
}

/**
 * Takes the turn a session owes: one a stop interrupted (no holder, `turn_pending`) or one whose
 * holder stopped renewing its lease (a dead process). The conditional UPDATE makes the take-over
 * exactly once however many processes try. `deadOwners` are holders known to be dead already.
 */
export async function takeOwedTurn(
  db: Executor,
  sessionId: string,
  owner: string,
  leaseMs: number,
  now = new Date(),
  deadOwners: readonly string[] = [],
): Promise<boolean> {
  const taken = await db
    .updateTable("sessions")
    .set({ turn_owner: owner, turn_expires_at: new Date(now.getTime() + leaseMs), turn_pending: false })
    .where("id", "=", sessionId)
    .where((eb) =>
      eb.or([
        eb.and([eb("turn_owner", "is", null), eb("turn_pending", "=", true)]),
        eb.and([eb("turn_owner", "is not", null), eb("turn_expires_at", "<", now)]),
        ...(deadOwners.length > 0 ? [eb("turn_owner", "in", deadOwners)] : []),
      ]),
    )
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Open sessions that owe a turn (see takeOwedTurn). */
export async function sessionsOwingTurns(
  db: Executor,
  now = new Date(),
  deadOwners: readonly string[] = [],
): Promise<{ id: string; turn_owner: string | null }[]> {
  return db
    .selectFrom("sessions")
    .select(["id", "turn_owner"])
    .where("status", "in", ["planning", "executing", "awaiting_approval"])
    .where((eb) =>
      eb.or([
        eb.and([eb("turn_owner", "is", null), eb("turn_pending", "=", true)]),
        eb.and([eb("turn_owner", "is not", null), eb("turn_expires_at", "<", now)]),
        ...(deadOwners.length > 0 ? [eb("turn_owner", "in", deadOwners)] : []),
      ]),
    )
    .orderBy("id")
    .execute();
}

/** The current holder of the session's turn lease, if any. */
export async function turnOwner(db: Executor, sessionId: string): Promise<string | null> {
  const row = await db
    .selectFrom("sessions")
    .select("turn_owner")
    .where("id", "=", sessionId)
    .executeTakeFirst();
  return row?.turn_owner ?? null;
}

/** Holders of the turn leases of open sessions (the resume finds the dead among them). */
export async function turnOwnersOfOpenSessions(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom("sessions")
    .select("turn_owner")
    .where("turn_owner", "is not", null)
    .where("status", "not in", ["done", "failed"])
    .execute();
  return rows.map((row) => row.turn_owner!);
}

/**
 * A turn that ended by an error lets go of its lease; `owed` (a stop interrupted it) marks the turn
 * pending, so the next start resumes it. Only while `owner` still holds it.
 */
export async function dropTurn(db: Executor, sessionId: string, owner: string, owed: boolean): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ turn_owner: null, turn_expires_at: null, ...(owed ? { turn_pending: true } : {}) })
    .where("id", "=", sessionId)
    .where("turn_owner", "=", owner)
    .execute();
}

/** A turn nobody holds is owed (an approved plan whose consent turn never began). */
export async function markTurnOwed(db: Executor, sessionId: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ turn_pending: true })
    .where("id", "=", sessionId)
    .where("turn_owner", "is", null)
    .execute();
}
