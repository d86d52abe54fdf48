import type { Executor } from "./audit.ts";
import type { SessionUpdate } from "./schema.ts";
import { type Outcome, SESSION_STATUSES, type SessionStatus, TERMINAL_SESSION_STATUSES } from "./statuses.ts";

/**
 * The session lifecycle: the one module that writes `sessions.status`. Every move is one
 * conditional UPDATE from the states the table below allows, so two writers never both win and a
 * closed task moves only by reopening.
 */
const OPEN: readonly SessionStatus[] = ["planning", "executing", "awaiting_approval", "awaiting_input"];

/** Allowed moves. An open task may go to any state (a new goal re-plans); a closed one only reopens. */
export const SESSION_TRANSITIONS: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  planning: [...OPEN, "done", "failed"],
  executing: [...OPEN, "done", "failed"],
  awaiting_approval: [...OPEN, "done", "failed"],
  awaiting_input: [...OPEN, "done", "failed"],
  done: ["planning"],
  failed: ["planning"],
};

/** The states a session may move to `to` from, read off the table. */
export function sessionStatusesInto(to: SessionStatus): SessionStatus[] {
  return SESSION_STATUSES.filter((from) => SESSION_TRANSITIONS[from].includes(to));
}

export interface SessionMove {
  /** Only from these (each must allow `to`); default: every state the table allows. */
  from?: readonly SessionStatus[];
  /** Columns written with the status, in the same UPDATE. */
  set?: SessionUpdate;
  now?: Date;
}

/**
 * Moves a session to `to` in one conditional UPDATE. Returns false when the session was not in a
 * from-state (someone else moved it first). Activity and `closed_at` are stamped here.
 */
export async function moveSession(
  db: Executor,
  id: string,
  to: SessionStatus,
  move: SessionMove = {},
): Promise<boolean> {
  const from = move.from ?? sessionStatusesInto(to);
  for (const state of from) {
    if (!SESSION_TRANSITIONS[state].includes(to)) {
      throw new Error(`session transition ${state} → ${to} is not allowed`);
    }
  }
  const now = move.now ?? new Date();
  const result = await db
    .updateTable("sessions")
    .set({
      ...move.set,
      status: to,
      updated_at: now,
      last_activity_at: now,
      ...(TERMINAL_SESSION_STATUSES.includes(to) ? { closed_at: now } : {}),
    })
    .where("id", "=", id)
    .where("status", "in", [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** set_goal: the (new) goal is recorded and the task plans again. */
export function replanForGoal(db: Executor, id: string, goal: string, now: Date): Promise<boolean> {
  return moveSession(db, id, "planning", { from: OPEN, set: { goal }, now });
}

/** propose_plan: a plan with a change waits for the operator's approval; a read-only one executes. */
export function markPlanProposed(
  db: Executor,
  id: string,
  needsApproval: boolean,
  now: Date,
): Promise<boolean> {
  return moveSession(db, id, needsApproval ? "awaiting_approval" : "executing", {
    set: { requires_replan: false },
    now,
  });
}

/** ask_operator: the task waits for the operator's answer. */
export function markAwaitingAnswer(db: Executor, id: string, now: Date): Promise<boolean> {
  return moveSession(db, id, "awaiting_input", { now });
}

/**
 * A turn whose process died in every run: the session lets go of its turn and waits for the
 * operator. Once: a session already waiting is not moved again.
 */
export function parkForOperator(db: Executor, id: string, now: Date): Promise<boolean> {
  return moveSession(db, id, "awaiting_input", {
    from: ["planning", "executing", "awaiting_approval"],
    set: { turn_owner: null, turn_expires_at: null, turn_pending: false },
    now,
  });
}

/** The operator decided the plan the session waited for: approved → executing, denied → planning. */
export function markPlanDecided(db: Executor, id: string, approved: boolean, now: Date): Promise<boolean> {
  return moveSession(db, id, approved ? "executing" : "planning", { from: ["awaiting_approval"], now });
}

/** The operator answered the question the session waited for: back to its plan, or to planning. */
export function markAnswered(db: Executor, id: string, planApproved: boolean, now: Date): Promise<boolean> {
  return moveSession(db, id, planApproved ? "executing" : "planning", { from: ["awaiting_input"], now });
}

/**
 * A done/failed session that gets a new operator message reopens as a new task: status planning,
 * outcome cleared, and `requires_replan` set so no non-read-only run happens before a fresh set_goal +
 * propose_plan. Conditional: returns false when the session was not closed.
 */
export function reopenSession(db: Executor, id: string, now = new Date()): Promise<boolean> {
  return moveSession(db, id, "planning", {
    from: TERMINAL_SESSION_STATUSES,
    set: {
      outcome: null,
      closed_at: null,
      requires_replan: true,
      reopened_at: now,
      live_discovery: false,
      entity_writeback: false,
      nudged_at: null,
    },
    now,
  });
}

export interface SessionClose {
  outcome: Outcome;
  summary: string;
  verification: string | null;
  leftOpen: string | null;
}

/** complete_task's close: done (failed for outcome failure), once. Returns false when already closed. */
export function closeSession(db: Executor, id: string, close: SessionClose, now: Date): Promise<boolean> {
  return moveSession(db, id, close.outcome === "failure" ? "failed" : "done", {
    from: OPEN,
    set: {
      outcome: close.outcome,
      summary: close.summary,
      verification: close.verification,
      left_open: close.leftOpen,
    },
    now,
  });
}
