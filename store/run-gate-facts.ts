import type { Kysely } from "kysely";
import type { Database, Session } from "./schema.ts";

export interface SessionFacts {
  session: Session;
  /** The session's current plan (none when it must be re-planned or was superseded). */
  plan: { generation: number; status: string } | null;
  assentWindowOpen: boolean;
  destructiveWindowOpen: boolean;
  pendingApproval: { approvalId: string; executionId: string | null } | null;
  failuresOfKey: number;
}

/**
 * The session and every store fact the risk gate needs, for this session and target only, in one
 * round trip (the gate runs on every `run`; on embedded PGlite each query costs milliseconds).
 */
export async function loadSessionFacts(
  db: Kysely<Database>,
  input: { sessionId: string; targetSlug: string; commandKey: string; now: Date },
): Promise<SessionFacts | undefined> {
  const { now } = input;
  const row = await db
    .selectFrom("sessions as s")
    .selectAll("s")
    .select((eb) => [
      eb
        .selectFrom("plans as p")
        .select("p.status")
        .whereRef("p.session_id", "=", "s.id")
        .whereRef("p.generation", "=", "s.plan_generation")
        .as("plan_status"),
      eb
        .exists(
          eb
            .selectFrom("windows as w")
            .select("w.id")
            .whereRef("w.session_id", "=", "s.id")
            .where("w.kind", "=", "assent")
            .where("w.target", "=", "")
            .where("w.expires_at", ">", now),
        )
        .as("assent_open"),
      eb
        .exists(
          eb
            .selectFrom("windows as w")
            .select("w.id")
            .whereRef("w.session_id", "=", "s.id")
            .where("w.kind", "=", "destructive")
            .where("w.target", "=", input.targetSlug)
            .where("w.expires_at", ">", now),
        )
        .as("destructive_open"),
      eb
        .selectFrom("executions as x")
        .select((x) => x.fn.countAll<string>().as("n"))
        .whereRef("x.session_id", "=", "s.id")
        .where("x.command_key", "=", input.commandKey)
        .where("x.status", "in", ["failed", "timed_out"])
        .as("failures"),
    ])
    // One row for both ids: two separate limit(1) subqueries could pick different approvals.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("approvals as a")
          .select(["a.id as pending_approval_id", "a.execution_id as pending_execution_id"])
          .whereRef("a.session_id", "=", "s.id")
          .where("a.subject", "=", "execution")
          .where("a.status", "=", "pending")
          .orderBy("a.created_at")
          .orderBy("a.id")
          .limit(1)
          .as("pa"),
      (join) => join.onTrue(),
    )
    .select(["pa.pending_approval_id", "pa.pending_execution_id"])
    .where("s.id", "=", input.sessionId)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    plan_status,
    assent_open,
    destructive_open,
    pending_approval_id,
    pending_execution_id,
    failures,
    ...session
  } = row;
  const hasPlan = !session.requires_replan && session.plan_generation > 0 && plan_status !== null;
  const plan = hasPlan ? { generation: session.plan_generation, status: plan_status as string } : null;
  return {
    session: session as Session,
    plan,
    // The assent window belongs to an approved plan: a replaced or unapproved plan has none.
    assentWindowOpen: Boolean(assent_open) && plan?.status === "approved",
    destructiveWindowOpen: Boolean(destructive_open),
    pendingApproval: pending_approval_id
      ? { approvalId: pending_approval_id, executionId: pending_execution_id ?? null }
      : null,
    failuresOfKey: Number(failures ?? 0),
  };
}
