import { randomBytes } from "node:crypto";
import { sql, type Updateable } from "kysely";
import type { JailPlan } from "../policy/jail.ts";
import type { JailGrant } from "../policy/jail-grant.ts";
import type { Executor } from "./audit.ts";
import { type ExecutionSnapshot, executionSnapshotSchema } from "./execution-snapshot.ts";
import type { Execution, ExecutionsTable, JsonObject } from "./schema.ts";
import {
  type ExecutionStatus,
  type RunnableRisk,
  TERMINAL_EXECUTION_STATUS_VALUES,
  TERMINAL_EXECUTION_STATUSES,
  type TerminalExecutionStatus,
} from "./statuses.ts";

export type { Execution } from "./schema.ts";
export {
  EXECUTION_STATUSES,
  type ExecutionStatus,
  TERMINAL_EXECUTION_STATUSES,
  type TerminalExecutionStatus,
} from "./statuses.ts";

/**
 * The execution state machine. Every move is one conditional UPDATE that checks the from-state, so
 * two workers, or a worker and a sweep, can never both win the same transition.
 */
export const OPEN_EXECUTION_STATUSES: readonly ExecutionStatus[] = [
  "pending_approval",
  "approved",
  "queued",
  "running",
];

/**
 * Allowed moves. `running → queued` is the automatic retry of a read-only command whose worker died;
 * `running → pending_approval` is a change whose snapshot before it failed, waiting (nothing ran) for
 * the operator to let it run without one (store/snapshot-waiver.ts).
 */
export const EXECUTION_TRANSITIONS: Readonly<Record<ExecutionStatus, readonly ExecutionStatus[]>> = {
  pending_approval: ["approved", "denied", "cancelled", "expired"],
  approved: ["queued", "cancelled", "expired"],
  queued: ["running", "failed", "cancelled", "expired", "interrupted"],
  running: ["completed", "failed", "timed_out", "interrupted", "cancelled", "queued", "pending_approval"],
  completed: [],
  failed: [],
  timed_out: [],
  interrupted: [],
  denied: [],
  cancelled: [],
  expired: [],
};

export function isTerminalExecutionStatus(status: string): status is TerminalExecutionStatus {
  return (TERMINAL_EXECUTION_STATUSES as readonly string[]).includes(status);
}

export function newExecutionId(): string {
  return `ex-${randomBytes(6).toString("hex")}`;
}

export interface NewExecution {
  id?: string;
  sessionId: string | null;
  planGeneration?: number | null;
  stepSeq?: number | null;
  target: string;
  command: string;
  commandKey: string;
  risk: RunnableRisk;
  purpose: string;
  requestedBy: string;
  status: "pending_approval" | "queued";
  timeoutMs: number;
  /** When a row in this state is given up by the sweep (approval expiry, or queue wait + timeout). */
  deadlineAt: Date;
  approvalId?: string | null;
  /** The resolved target (jobs/ssh Target) this execution is approved for; the worker runs it nowhere else. */
  routing?: JsonObject | null;
  /** How the worker runs it with respect to the read-only jail (policy/jail.ts); default off. */
  jailPlan?: JailPlan;
  /** Why it will not run jailed, when the gate already knows. */
  jailNote?: string | null;
  /** What the jail opens to it (read-only runs: its proof's grants; policy/jail-grant.ts). */
  jailGrants?: readonly JailGrant[];
}

export async function createExecution(
  db: Executor,
  input: NewExecution,
  now = new Date(),
): Promise<Execution> {
  return db
    .insertInto("executions")
    .values({
      id: input.id ?? newExecutionId(),
      session_id: input.sessionId,
      plan_generation: input.planGeneration ?? null,
      step_seq: input.stepSeq ?? null,
      target: input.target,
      command: input.command,
      command_key: input.commandKey,
      risk: input.risk,
      purpose: input.purpose,
      status: input.status,
      status_reason: null,
      requested_by: input.requestedBy,
      approval_id: input.approvalId ?? null,
      routing: input.routing ? JSON.stringify(input.routing) : null,
      jail_plan: input.jailPlan ?? "off",
      jail_note: input.jailNote ?? null,
      jail_grants: JSON.stringify(input.jailGrants ?? []),
      timeout_ms: input.timeoutMs,
      deadline_at: input.deadlineAt,
      exit_code: null,
      signal: null,
      stdout: null,
      stderr: null,
      duration_ms: null,
      worker_id: null,
      heartbeat_at: null,
      created_at: now,
      queued_at: input.status === "queued" ? now : null,
      started_at: null,
      finished_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getExecution(db: Executor, id: string): Promise<Execution | undefined> {
  return db.selectFrom("executions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** What an execution's cards hang on: the execution it rolled back, its session and plan, its approvals. */
export interface ExecutionCardLinks {
  rollbackOf: string | null;
  sessionId: string | null;
  planGeneration: number | null;
  approvalIds: string[];
}

/**
 * One read for the chat renderer's refresh of an execution's cards (queued, started, finished): the
 * links alone, with the approval ids in the same statement — not the whole row with its output.
 */
export async function executionCardLinks(db: Executor, id: string): Promise<ExecutionCardLinks | undefined> {
  const row = await db
    .selectFrom("executions as e")
    .select((eb) => [
      "e.rollback_of",
      "e.session_id",
      "e.plan_generation",
      eb
        .selectFrom("approvals as a")
        .select(sql<string[]>`coalesce(json_agg(a.id), '[]'::json)`.as("ids"))
        .whereRef("a.execution_id", "=", "e.id")
        .as("approval_ids"),
    ])
    .where("e.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    rollbackOf: row.rollback_of,
    sessionId: row.session_id,
    planGeneration: row.plan_generation,
    approvalIds: row.approval_ids ?? [],
  };
}

export interface TransitionOptions {
  from: ExecutionStatus | readonly ExecutionStatus[];
  to: ExecutionStatus;
  reason?: string | null;
  set?: Updateable<ExecutionsTable>;
  /** Only when this worker holds the row (finishing a run it claimed). */
  workerId?: string;
  now?: Date;
}

/**
 * Moves one execution `from → to` in a single conditional UPDATE. Returns the updated row when
 * this caller won, or undefined when the row was not in a from-state (someone else moved it).
 */
export async function transitionExecution(
  db: Executor,
  id: string,
  options: TransitionOptions,
): Promise<Execution | undefined> {
  const from = typeof options.from === "string" ? [options.from] : [...options.from];
  for (const state of from) {
    if (!EXECUTION_TRANSITIONS[state].includes(options.to)) {
      throw new Error(`execution transition ${state} → ${options.to} is not allowed`);
    }
  }
  const now = options.now ?? new Date();
  const stamp: Updateable<ExecutionsTable> = {};
  if (options.to === "queued") stamp.queued_at = now;
  if (options.to === "running") stamp.started_at = now;
  if (isTerminalExecutionStatus(options.to)) stamp.finished_at = now;
  let query = db
    .updateTable("executions")
    .set({
      ...stamp,
      ...options.set,
      status: options.to,
      ...(options.reason !== undefined ? { status_reason: options.reason } : {}),
    })
    .where("id", "=", id)
    .where("status", "in", from);
  if (options.workerId !== undefined) query = query.where("worker_id", "=", options.workerId);
  return query.returningAll().executeTakeFirst();
}

/** queued → running for this worker: the one place a command is allowed to start. One UPDATE. */
export async function claimExecution(
  db: Executor,
  id: string,
  workerId: string,
  now = new Date(),
  graceMs = 30_000,
): Promise<Execution | undefined> {
  return db
    .updateTable("executions")
    .set((eb) => ({
      status: "running",
      started_at: now,
      worker_id: workerId,
      heartbeat_at: now,
      attempts: eb("attempts", "+", 1),
      deadline_at: sql<Date>`${now}::timestamptz + (timeout_ms + ${graceMs}) * interval '1 millisecond'`,
    }))
    .where("id", "=", id)
    .where("status", "=", "queued")
    .returningAll()
    .executeTakeFirst();
}

/** Records that the worker is alive; returns whether a cancel was requested meanwhile. */
export async function heartbeatExecution(
  db: Executor,
  id: string,
  workerId: string,
  now = new Date(),
): Promise<{ alive: boolean; cancelRequested: boolean }> {
  const row = await db
    .updateTable("executions")
    .set({ heartbeat_at: now })
    .where("id", "=", id)
    .where("status", "=", "running")
    .where("worker_id", "=", workerId)
    .returning(["cancel_requested_at"])
    .executeTakeFirst();
  return { alive: row !== undefined, cancelRequested: row?.cancel_requested_at != null };
}

/** Asks the worker running `id` to stop it; the worker's heartbeat notices. */
export async function requestCancel(
  db: Executor,
  id: string,
  by: string,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("executions")
    .set({ cancel_requested_at: now, cancel_requested_by: by })
    .where("id", "=", id)
    .where("status", "=", "running")
    .where("cancel_requested_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Failures and timeouts of one command key in a session: the retry cap counts these. */
export async function countFailuresOfKey(
  db: Executor,
  sessionId: string,
  commandKey: string,
): Promise<number> {
  const row = await db
    .selectFrom("executions")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("session_id", "=", sessionId)
    .where("command_key", "=", commandKey)
    .where("status", "in", ["failed", "timed_out"])
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Running rows whose worker stopped heartbeating, and open rows past their deadline. */
export async function findStaleExecutions(
  db: Executor,
  options: { now: Date; heartbeatStaleMs: number },
): Promise<Execution[]> {
  const heartbeatBefore = new Date(options.now.getTime() - options.heartbeatStaleMs);
  return db
    .selectFrom("executions")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "running"), eb("heartbeat_at", "<", heartbeatBefore)]),
        eb.and([eb("status", "in", ["approved", "queued", "running"]), eb("deadline_at", "<", options.now)]),
      ]),
    )
    .orderBy("created_at")
    .execute();
}

/**
 * The agent was told these executions of `sessionId` are still running: their results are owed to
 * the session (agent/continuation.ts continues it when each ends). Returns the rows as they are
 * after the mark, so a caller sees any that ended before it.
 */
export async function markResultsOwed(
  db: Executor,
  sessionId: string,
  ids: readonly string[],
): Promise<Execution[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable("executions")
    .set({ result_owed: true })
    .where("session_id", "=", sessionId)
    .where("id", "in", ids)
    .returningAll()
    .execute();
}

/** The approval an execution waits for (and, for a rollback, the execution it undoes), set once it exists. */
export async function attachApproval(
  db: Executor,
  id: string,
  approvalId: string,
  options: { rollbackOf?: string } = {},
): Promise<void> {
  await db
    .updateTable("executions")
    .set({ approval_id: approvalId, ...(options.rollbackOf ? { rollback_of: options.rollbackOf } : {}) })
    .where("id", "=", id)
    .execute();
}

/** `queued` executions still inside their deadline, oldest first (the start-up requeue). */
export async function queuedExecutionIds(db: Executor, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("executions")
    .select("id")
    .where("status", "=", "queued")
    .where("deadline_at", ">", now)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => row.id);
}

/** A rollback of `executionId` that has not ended yet, if one was asked for. */
export async function openRollbackOf(
  db: Executor,
  executionId: string,
): Promise<Pick<Execution, "id" | "status"> | undefined> {
  return db
    .selectFrom("executions")
    .select(["id", "status"])
    .where("rollback_of", "=", executionId)
    .where("status", "in", [...OPEN_EXECUTION_STATUSES])
    .executeTakeFirst();
}

/**
 * Executions of still-open sessions that ended since `since` and were never reported to their
 * session: no `execution:<id>` note exists (the start-up catch-up continues them).
 */
export async function endedWithoutNote(
  db: Executor,
  since: Date,
): Promise<Pick<Execution, "id" | "session_id" | "status" | "step_seq">[]> {
  return db
    .selectFrom("executions as e")
    .innerJoin("sessions as s", "s.id", "e.session_id")
    .select(["e.id", "e.session_id", "e.status", "e.step_seq"])
    .where("e.status", "in", TERMINAL_EXECUTION_STATUS_VALUES)
    .where("e.finished_at", ">=", since)
    .where("s.status", "not in", ["done", "failed"])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("messages as m")
            .select("m.id")
            .whereRef("m.session_id", "=", "e.session_id")
            .where(sql<boolean>`m.name = 'execution:' || e.id`),
        ),
      ),
    )
    .execute();
}

/** The first execution a `run` of this session started on `target` for `command` since `since`. */
export async function firstRunSince(
  db: Executor,
  run: { sessionId: string; target: string; command: string; since: Date },
): Promise<Execution | undefined> {
  return db
    .selectFrom("executions")
    .selectAll()
    .where("session_id", "=", run.sessionId)
    .where("target", "=", run.target)
    .where("command", "=", run.command)
    .where("created_at", ">=", run.since)
    .orderBy("created_at", "asc")
    .executeTakeFirst();
}

/** An execution with the room of its session (who may cancel it). */
export async function executionWithRoom(
  db: Executor,
  id: string,
): Promise<
  { id: string; status: ExecutionStatus; platform: string | null; room: string | null } | undefined
> {
  return db
    .selectFrom("executions")
    .leftJoin("sessions", "sessions.id", "executions.session_id")
    .select(["executions.id", "executions.status", "sessions.platform", "sessions.room"])
    .where("executions.id", "=", id)
    .executeTakeFirst();
}

/** The runs of one plan generation, oldest first, as its card shows them. */
export async function runsOfPlan(db: Executor, sessionId: string, generation: number) {
  return db
    .selectFrom("executions")
    .select([
      "step_seq",
      "status",
      "exit_code",
      "duration_ms",
      "stdout",
      "stderr",
      "output_truncated",
      "status_reason",
      "risk",
      "jailed",
      "jail_grants",
      "jail_hidden",
      "finished_at",
      "snapshot",
    ])
    .where("session_id", "=", sessionId)
    .where("plan_generation", "=", generation)
    .orderBy("created_at")
    .execute();
}

/** A session's executions with a snapshot record, newest first (of one plan generation, if given). */
export async function snapshotsOfSession(
  db: Executor,
  sessionId: string,
  generation?: number,
): Promise<{ id: string; snapshot: unknown }[]> {
  let query = db
    .selectFrom("executions")
    .select(["id", "snapshot"])
    .where("session_id", "=", sessionId)
    .where("snapshot", "is not", null);
  if (generation !== undefined) query = query.where("plan_generation", "=", generation);
  return query.orderBy("created_at", "desc").execute();
}

/** Records what happened about the snapshot before an execution (or a later mark: rolled back, removed). */
export async function recordExecutionSnapshot(
  db: Executor,
  executionId: string,
  snapshot: ExecutionSnapshot,
): Promise<void> {
  await db
    .updateTable("executions")
    .set({ snapshot: JSON.stringify(executionSnapshotSchema.parse(snapshot)) })
    .where("id", "=", executionId)
    .execute();
}

/** Every execution with a snapshot record (taken or not), for retention. */
export async function executionsWithSnapshot(db: Executor): Promise<{ id: string; snapshot: unknown }[]> {
  return db.selectFrom("executions").select(["id", "snapshot"]).where("snapshot", "is not", null).execute();
}

/**
 * The preview changed at approval: the execution, still waiting, now waits for the approval asked
 * again (store/preview-approval.ts), with that approval's expiry as its deadline.
 */
export async function reattachApproval(
  db: Executor,
  id: string,
  approvalId: string,
  deadlineAt: Date,
): Promise<void> {
  await db
    .updateTable("executions")
    .set({ approval_id: approvalId, deadline_at: deadlineAt })
    .where("id", "=", id)
    .where("status", "=", "pending_approval")
    .execute();
}
