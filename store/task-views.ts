import { sql } from "kysely";
import type { Executor } from "./audit.ts";
import type { Approval, Execution, PlanStep, Session } from "./schema.ts";
import { TERMINAL_SESSION_STATUSES } from "./statuses.ts";

/**
 * The operator's read of tasks (sessions) without the model: which are open, which wait for an
 * operator and since when, which went quiet, and one task in full.
 */
export const TASK_FILTERS = ["open", "waiting", "stuck", "partial", "today", "all"] as const;
export type TaskFilter = (typeof TASK_FILTERS)[number];

/** An open task with no activity for this long, and nothing waiting on an operator, is stuck. */
export const STUCK_AFTER_MS = 30 * 60_000;
const LIST_LIMIT = 30;

export type WaitingFor =
  | { kind: "approval"; since: Date; approvalId: string }
  | { kind: "plan_approval"; since: Date; generation: number }
  | { kind: "answer"; since: Date; questionId: string };

export interface TaskLine {
  id: string;
  platform: string;
  room: string;
  thread: string;
  goal: string | null;
  status: Session["status"];
  outcome: Session["outcome"];
  waitingFor: WaitingFor | null;
  lastActivityAt: Date;
  createdAt: Date;
  closedAt: Date | null;
}

export interface TaskScope {
  /** Only this room's tasks; undefined: every room's. */
  room?: { platform: string; room: string };
}

export async function listTasks(
  db: Executor,
  filter: TaskFilter,
  scope: TaskScope,
  now = new Date(),
): Promise<TaskLine[]> {
  let query = db.selectFrom("sessions").selectAll();
  if (scope.room)
    query = query.where("platform", "=", scope.room.platform).where("room", "=", scope.room.room);
  const closed = [...TERMINAL_SESSION_STATUSES];
  if (filter === "open" || filter === "waiting" || filter === "stuck")
    query = query.where("status", "not in", closed);
  if (filter === "partial") query = query.where("outcome", "=", "partial");
  if (filter === "today") {
    const since = new Date(now.getTime() - 24 * 3_600_000);
    query = query.where((eb) => eb.or([eb("created_at", ">=", since), eb("last_activity_at", ">=", since)]));
  }
  if (filter === "stuck")
    query = query.where("last_activity_at", "<", new Date(now.getTime() - STUCK_AFTER_MS));
  const sessions = await query
    .orderBy("last_activity_at", "desc")
    .limit(filter === "waiting" || filter === "stuck" ? 500 : LIST_LIMIT)
    .execute();
  const waits = await waitingForAll(
    db,
    sessions.filter((s) => !closed.includes(s.status)).map((s) => s.id),
  );
  const lines = sessions.map((s) => toLine(s, waits.get(s.id) ?? null));
  if (filter === "waiting") return lines.filter((l) => l.waitingFor !== null).slice(0, LIST_LIMIT);
  if (filter === "stuck") return lines.filter((l) => l.waitingFor === null).slice(0, LIST_LIMIT);
  return lines;
}

function toLine(s: Session, waitingFor: WaitingFor | null): TaskLine {
  return {
    id: s.id,
    platform: s.platform,
    room: s.room,
    thread: s.thread,
    goal: s.goal,
    status: s.status,
    outcome: s.outcome,
    waitingFor,
    lastActivityAt: s.last_activity_at,
    createdAt: s.created_at,
    closedAt: s.closed_at,
  };
}

/** What each open session waits for from an operator: an approval, a plan decision, or an answer. */
async function waitingForAll(db: Executor, sessionIds: string[]): Promise<Map<string, WaitingFor>> {
  const waits = new Map<string, WaitingFor>();
  if (sessionIds.length === 0) return waits;
  const approvals = await db
    .selectFrom("approvals")
    .select(["id", "session_id", "created_at"])
    .where("session_id", "in", sessionIds)
    .where("status", "=", "pending")
    .execute();
  for (const a of approvals)
    waits.set(a.session_id, { kind: "approval", since: a.created_at, approvalId: a.id });
  const plans = await db
    .selectFrom("plans")
    .select(["session_id", "generation", "created_at"])
    .where("session_id", "in", sessionIds)
    .where("status", "=", "proposed")
    .where("needs_approval", "=", true)
    .execute();
  for (const p of plans) {
    if (!waits.has(p.session_id))
      waits.set(p.session_id, { kind: "plan_approval", since: p.created_at, generation: p.generation });
  }
  const questions = await db
    .selectFrom("questions")
    .select(["id", "session_id", "created_at"])
    .where("session_id", "in", sessionIds)
    .where("status", "=", "open")
    .execute();
  for (const q of questions) {
    if (!waits.has(q.session_id))
      waits.set(q.session_id, { kind: "answer", since: q.created_at, questionId: q.id });
  }
  return waits;
}

export interface TaskDetail {
  line: TaskLine;
  summary: string | null;
  createdBy: string;
  plan: { generation: number; status: string; steps: PlanStep[] } | null;
  executions: Execution[];
  approvals: Approval[];
}

export type FindTaskResult = { found: true; task: TaskDetail } | { found: false; ambiguous: string[] };

/** One task by its id or an unambiguous prefix of it (listings show the first 8 characters). */
export async function findTask(db: Executor, idOrPrefix: string, scope: TaskScope): Promise<FindTaskResult> {
  const prefix = idOrPrefix.toLowerCase().replace(/[^0-9a-f-]/g, "");
  if (prefix.length === 0) return { found: false, ambiguous: [] };
  let query = db.selectFrom("sessions").selectAll().where(sql<string>`id::text`, "like", `${prefix}%`);
  if (scope.room)
    query = query.where("platform", "=", scope.room.platform).where("room", "=", scope.room.room);
  const matches = await query.limit(5).execute();
  if (matches.length !== 1) return { found: false, ambiguous: matches.map((m) => m.id) };
  const session = matches[0]!;
  const waits = TERMINAL_SESSION_STATUSES.includes(session.status)
    ? new Map<string, WaitingFor>()
    : await waitingForAll(db, [session.id]);
  const plan = await db
    .selectFrom("plans")
    .select(["generation", "status"])
    .where("session_id", "=", session.id)
    .orderBy("generation", "desc")
    .executeTakeFirst();
  const steps = plan
    ? await db
        .selectFrom("plan_steps")
        .selectAll()
        .where("session_id", "=", session.id)
        .where("generation", "=", plan.generation)
        .orderBy("seq")
        .execute()
    : [];
  const executions = await db
    .selectFrom("executions")
    .selectAll()
    .where("session_id", "=", session.id)
    .orderBy("created_at")
    .limit(50)
    .execute();
  const approvals = await db
    .selectFrom("approvals")
    .selectAll()
    .where("session_id", "=", session.id)
    .orderBy("created_at")
    .limit(50)
    .execute();
  return {
    found: true,
    task: {
      line: toLine(session, waits.get(session.id) ?? null),
      summary: session.summary,
      createdBy: session.created_by,
      plan: plan ? { generation: plan.generation, status: plan.status, steps } : null,
      executions,
      approvals,
    },
  };
}
