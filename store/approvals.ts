import { randomBytes } from "node:crypto";
import type { GrantBasis } from "../policy/standing-grant.ts";
import type { UnreadableKind } from "../policy/unreadable.ts";
import type { Executor } from "./audit.ts";
import type { Approval } from "./schema.ts";
import type { RunnableRisk } from "./statuses.ts";

export type { Approval } from "./schema.ts";

export { APPROVAL_STATUSES, type ApprovalStatus } from "./statuses.ts";

/** How an operator decided; `sweep` and `system` are ours (expiry, cascades). */
export const CONSENT_CHANNELS = ["reaction", "button", "phrase", "slash", "api"] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** An approval nobody decides on lapses after this long. */
export const DEFAULT_APPROVAL_TTL_MS = 60 * 60_000;

export function newApprovalId(): string {
  return `ap-${randomBytes(6).toString("hex")}`;
}

export interface NewExecutionApproval {
  id?: string;
  sessionId: string;
  executionId: string;
  commandKey: string;
  target: string;
  risk: RunnableRisk;
  /** Set for a destructive command: the words the operator must type. */
  requiredPhrase?: string | null;
  expiresAt: Date;
  /** What a standing grant of this approval would cover (policy/standing-grant.ts); absent: none may be made. */
  grantBasis?: GrantBasis | null;
  /** Why oikos cannot tell what the command changes (the classification's `unreadable`). */
  unreadable?: UnreadableKind | null;
}

export type CreateApprovalResult =
  | { created: true; approval: Approval }
  | { created: false; pending: Approval | undefined };

/**
 * The pending approval of one execution. The partial unique index allows one pending execution
 * approval per session: a second insert loses and the caller is told which one is pending.
 * Runs in the caller's transaction, so a lost insert must not abort it: ON CONFLICT DO NOTHING.
 */
export async function createExecutionApproval(
  db: Executor,
  input: NewExecutionApproval,
  now = new Date(),
): Promise<CreateApprovalResult> {
  const inserted = await db
    .insertInto("approvals")
    .values({
      id: input.id ?? newApprovalId(),
      session_id: input.sessionId,
      subject: "execution",
      execution_id: input.executionId,
      plan_generation: null,
      command_key: input.commandKey,
      target: input.target,
      risk: input.risk,
      required_phrase: input.requiredPhrase ?? null,
      decided_by: null,
      channel: null,
      decided_at: null,
      expires_at: input.expiresAt,
      created_at: now,
      grant_basis: input.grantBasis ? JSON.stringify(input.grantBasis) : null,
      unreadable: input.unreadable ?? null,
    })
    .onConflict((oc) =>
      oc.column("session_id").where("status", "=", "pending").where("subject", "=", "execution").doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { created: true, approval: inserted };
  return { created: false, pending: await pendingExecutionApproval(db, input.sessionId) };
}

export async function getApproval(db: Executor, id: string): Promise<Approval | undefined> {
  return db.selectFrom("approvals").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function pendingExecutionApproval(
  db: Executor,
  sessionId: string,
): Promise<Approval | undefined> {
  return db
    .selectFrom("approvals")
    .selectAll()
    .where("session_id", "=", sessionId)
    .where("subject", "=", "execution")
    .where("status", "=", "pending")
    .executeTakeFirst();
}

/**
 * pending → approved | denied, only while unexpired (one conditional UPDATE). Undefined when the
 * approval was not pending any more or had expired.
 */
export async function decideApprovalRow(
  db: Executor,
  id: string,
  decision: "approved" | "denied",
  by: { by: string; channel: string },
  now = new Date(),
): Promise<Approval | undefined> {
  return db
    .updateTable("approvals")
    .set({ status: decision, decided_by: by.by, channel: by.channel, decided_at: now })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst();
}

/** pending → cancelled for an execution cancelled before anyone decided. */
export async function cancelApprovalOfExecution(
  db: Executor,
  executionId: string,
  by: string,
  now = new Date(),
): Promise<Approval | undefined> {
  return db
    .updateTable("approvals")
    .set({ status: "cancelled", decided_by: by, channel: "system", decided_at: now })
    .where("execution_id", "=", executionId)
    .where("status", "=", "pending")
    .returningAll()
    .executeTakeFirst();
}

/** pending → expired for every approval past its expiry; returns the rows this call expired. */
export async function expireApprovals(db: Executor, now = new Date()): Promise<Approval[]> {
  return db
    .updateTable("approvals")
    .set({ status: "expired", decided_by: "sweep", channel: "sweep", decided_at: now })
    .where("status", "=", "pending")
    .where("expires_at", "<=", now)
    .returningAll()
    .execute();
}

/** A pending approval as `!oikos approvals` lists it, with its execution's command. */
export interface PendingApprovalLine {
  id: string;
  subject: Approval["subject"];
  target: string | null;
  risk: Approval["risk"];
  expires_at: Date;
  created_at: Date;
  execution_id: string | null;
  command: string | null;
}

/** Pending approvals, oldest first: of one room's sessions, or of every room (`room` undefined). */
export async function listPendingApprovals(
  db: Executor,
  room: { platform: string; room: string } | undefined,
  limit = 30,
): Promise<PendingApprovalLine[]> {
  let query = db
    .selectFrom("approvals")
    .innerJoin("sessions", "sessions.id", "approvals.session_id")
    .leftJoin("executions", "executions.id", "approvals.execution_id");
  if (room) {
    query = query.where("sessions.platform", "=", room.platform).where("sessions.room", "=", room.room);
  }
  return query
    .select([
      "approvals.id",
      "approvals.subject",
      "approvals.target",
      "approvals.risk",
      "approvals.expires_at",
      "approvals.created_at",
      "executions.id as execution_id",
      "executions.command",
    ])
    .where("approvals.status", "=", "pending")
    .orderBy("approvals.created_at")
    .limit(limit)
    .execute();
}

/** An approval with its execution's command (reminder cards, Slack's "Show preview"). */
export async function approvalWithCommand(db: Executor, approvalId: string) {
  return db
    .selectFrom("approvals")
    .leftJoin("executions", "executions.id", "approvals.execution_id")
    .select([
      "approvals.status",
      "approvals.risk",
      "approvals.target",
      "approvals.expires_at",
      "approvals.created_at",
      "approvals.required_phrase",
      "executions.command",
    ])
    .where("approvals.id", "=", approvalId)
    .executeTakeFirst();
}

/** The exact phrase a pending approval of the session waits for (a destructive one), if any. */
export async function pendingTypedPhrase(db: Executor, sessionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("approvals")
    .select("required_phrase")
    .where("session_id", "=", sessionId)
    .where("status", "=", "pending")
    .where("required_phrase", "is not", null)
    .executeTakeFirst();
  return row?.required_phrase ?? undefined;
}
