import { randomBytes } from "node:crypto";
import { REDACTED } from "../policy/redact.ts";
import type { GrantBasis, StandingGrantFacts } from "../policy/standing-grant.ts";
import { newApprovalId } from "./approvals.ts";
import { type Executor, recordAudit } from "./audit.ts";
import type { Db } from "./db.ts";
import { attachApproval, createExecution, type Execution, type NewExecution } from "./executions.ts";
import type { StandingGrant } from "./schema.ts";
import type { GrantEndReason } from "./statuses.ts";

export type { StandingGrant } from "./schema.ts";
export { GRANT_END_REASONS, type GrantEndReason } from "./statuses.ts";

/**
 * Standing grants (issue #32), the one writer of `standing_grants`: created with the approval of
 * the execution they come from (store/consent.ts), used by the run gate (one approval row per use,
 * audited), ended by an operator (`!approvals revoke`) or by the gate when the command's routing,
 * proof or jail state changed. Which command a grant covers is policy's (policy/standing-grant.ts).
 */

export function newGrantId(): string {
  return `g-${randomBytes(5).toString("hex")}`;
}

export interface NewStandingGrant {
  basis: GrantBasis;
  grantedBy: string;
  grantedVia: string;
  approvalId: string;
  sessionId: string;
  platform: string;
  room: string;
  expiresAt: Date;
}

/** Runs in the caller's transaction (the approval that grants it). Audited `grant.created`. */
export async function createStandingGrant(
  tx: Executor,
  input: NewStandingGrant,
  now: Date,
): Promise<StandingGrant> {
  const grant = await tx
    .insertInto("standing_grants")
    .values({
      id: newGrantId(),
      target: input.basis.target,
      command: input.basis.command,
      risk: input.basis.risk,
      basis: JSON.stringify(input.basis),
      granted_by: input.grantedBy,
      granted_via: input.grantedVia,
      approval_id: input.approvalId,
      session_id: input.sessionId,
      platform: input.platform,
      room: input.room,
      created_at: now,
      expires_at: input.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(
    tx,
    { by: input.grantedBy, sessionId: input.sessionId },
    {
      action: "grant.created",
      subject: grant.id,
      details: {
        target: grant.target,
        command: grant.command,
        risk: grant.risk,
        via: input.grantedVia,
        approvalId: input.approvalId,
        until: input.expiresAt.toISOString(),
      },
    },
  );
  return grant;
}

export async function getStandingGrant(db: Executor, id: string): Promise<StandingGrant | undefined> {
  return db.selectFrom("standing_grants").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The live grants naming exactly this command on this target, as the gate judges them. */
export async function grantsNaming(
  db: Executor,
  target: string,
  command: string,
): Promise<StandingGrantFacts[]> {
  const rows = await db
    .selectFrom("standing_grants")
    .selectAll()
    .where("target", "=", target)
    .where("command", "=", command)
    .where("ended_at", "is", null)
    .orderBy("created_at")
    .execute();
  return rows.map(grantFacts);
}

export function grantFacts(row: StandingGrant): StandingGrantFacts {
  return {
    id: row.id,
    basis: row.basis,
    grantedBy: row.granted_by,
    expiresAt: row.expires_at,
    ended: row.ended_at !== null,
  };
}

/**
 * Ends a live grant (one conditional UPDATE): revoked by an operator, or killed by the gate because
 * its command now means something else. Undefined when it was not live (unknown, ended already).
 */
export async function endStandingGrant(
  db: Executor,
  id: string,
  end: { by: string; reason: GrantEndReason; now: Date },
): Promise<StandingGrant | undefined> {
  const ended = await db
    .updateTable("standing_grants")
    .set({ ended_at: end.now, ended_by: end.by, end_reason: end.reason })
    .where("id", "=", id)
    .where("ended_at", "is", null)
    .returningAll()
    .executeTakeFirst();
  if (ended) {
    await recordAudit(
      db,
      { by: end.by, sessionId: null },
      {
        action: end.reason === "revoked" ? "grant.revoked" : "grant.invalidated",
        subject: id,
        details: { reason: end.reason, target: ended.target, command: ended.command },
      },
    );
  }
  return ended;
}

export interface GrantUse {
  grantId: string;
  execution: NewExecution & { status: "queued" };
  sessionId: string;
  commandKey: string;
}

export type GrantUseResult =
  | { used: true; execution: Execution; approvalId: string; grant: StandingGrant }
  /** The grant ended or expired since the gate read it: nothing was written. */
  | { used: false };

/**
 * One run under a grant, in one transaction: the grant's use counted (only while it is live and
 * unexpired), the execution queued, and an approval row decided by the grant (channel `grant`,
 * decided_by the operator who granted it) linked to it, so its card and the audit show every use.
 */
export async function recordGrantUse(db: Db, use: GrantUse, now: Date): Promise<GrantUseResult> {
  return db.transaction().execute(async (tx): Promise<GrantUseResult> => {
    const grant = await tx
      .updateTable("standing_grants")
      .set((eb) => ({ uses: eb("uses", "+", 1), last_used_at: now }))
      .where("id", "=", use.grantId)
      .where("ended_at", "is", null)
      .where("expires_at", ">", now)
      .returningAll()
      .executeTakeFirst();
    if (!grant) return { used: false };
    const execution = await createExecution(tx, use.execution, now);
    const approvalId = newApprovalId();
    await tx
      .insertInto("approvals")
      .values({
        id: approvalId,
        session_id: use.sessionId,
        subject: "execution",
        execution_id: execution.id,
        plan_generation: null,
        command_key: use.commandKey,
        target: execution.target,
        risk: execution.risk,
        status: "approved",
        required_phrase: null,
        decided_by: grant.granted_by,
        channel: "grant",
        decided_at: now,
        expires_at: grant.expires_at,
        created_at: now,
        standing_grant_id: grant.id,
      })
      .execute();
    await attachApproval(tx, execution.id, approvalId);
    await recordAudit(
      tx,
      { by: `grant:${grant.id}`, sessionId: use.sessionId },
      {
        action: "grant.used",
        subject: grant.id,
        details: {
          executionId: execution.id,
          approvalId,
          target: grant.target,
          grantedBy: grant.granted_by,
          use: grant.uses,
        },
      },
    );
    return { used: true, execution: { ...execution, approval_id: approvalId }, approvalId, grant };
  });
}

/** A grant as `!approvals` lists it. */
export type GrantLine = Pick<
  StandingGrant,
  "id" | "target" | "command" | "risk" | "granted_by" | "created_at" | "expires_at" | "uses" | "last_used_at"
>;

/** Live, unexpired grants, oldest first: of one room, or of every room (`room` undefined). */
export async function listLiveGrants(
  db: Executor,
  room: { platform: string; room: string } | undefined,
  now: Date,
  limit = 30,
): Promise<GrantLine[]> {
  let query = db
    .selectFrom("standing_grants")
    .select([
      "id",
      "target",
      "command",
      "risk",
      "granted_by",
      "created_at",
      "expires_at",
      "uses",
      "last_used_at",
    ])
    .where("ended_at", "is", null)
    .where("expires_at", ">", now);
  if (room) query = query.where("platform", "=", room.platform).where("room", "=", room.room);
  return query.orderBy("created_at").limit(limit).execute();
}

/** The live grants of one target, ended at once (a routing change re-routes the target). */
export async function endGrantsOfTarget(
  db: Executor,
  target: string,
  end: { by: string; reason: GrantEndReason; now: Date },
): Promise<string[]> {
  const rows = await db
    .selectFrom("standing_grants")
    .select("id")
    .where("target", "=", target)
    .where("ended_at", "is", null)
    .execute();
  const ended: string[] = [];
  for (const row of rows) if (await endStandingGrant(db, row.id, end)) ended.push(row.id);
  return ended;
}

/** The grant an approval made (♾️ on its card), if it made one. */
export async function grantMadeBy(db: Executor, approvalId: string): Promise<StandingGrant | undefined> {
  return db
    .selectFrom("standing_grants")
    .selectAll()
    .where("approval_id", "=", approvalId)
    .executeTakeFirst();
}

/** A live grant as a task's context shows it: what may run unasked, where, until when. */
export type GrantInPlay = Pick<StandingGrant, "id" | "target" | "command" | "expires_at">;

/**
 * The live, unexpired grants of this session's room on these targets, oldest first, in one query
 * (the session's room is joined, not read first). What the agent is told it may run without a plan;
 * grants of other rooms, and of targets the task does not touch, are never shown. Nor is one whose
 * command lost a secret to redaction when it was stored (store/redact-on-write.ts): its text is not
 * the command that ran, so it covers nothing and running it "as granted" would run the marker.
 */
export async function grantsInPlay(
  db: Executor,
  sessionId: string,
  targets: readonly string[],
  now: Date,
  limit = 20,
): Promise<GrantInPlay[]> {
  if (targets.length === 0) return [];
  const rows = await db
    .selectFrom("standing_grants as g")
    .innerJoin("sessions as s", (join) =>
      join.onRef("s.platform", "=", "g.platform").onRef("s.room", "=", "g.room"),
    )
    .select(["g.id", "g.target", "g.command", "g.expires_at"])
    .where("s.id", "=", sessionId)
    .where("g.target", "in", [...targets])
    .where("g.ended_at", "is", null)
    .where("g.expires_at", ">", now)
    .orderBy("g.created_at")
    .orderBy("g.id")
    .limit(limit)
    .execute();
  return rows.filter((row) => !row.command.includes(REDACTED));
}
