import { sql } from "kysely";
import type { Executor } from "./audit.ts";
import type { ApprovalSubject } from "./statuses.ts";

/** A plan's approval lives in `plans`, the others in `approvals`: both are decisions asked of an operator. */
export type ApprovalFigureSubject = ApprovalSubject | "plan";

/**
 * Whether the rules help, from what the store already holds: tasks by outcome, plan adherence,
 * executions by risk and status, approvals by outcome with how long they waited, run-gate
 * refusals by code, model calls and tokens. `since` bounds every figure (undefined: all time).
 */
export interface QualityFigures {
  tasksByOutcome: { outcome: string; count: number }[];
  /** Plan adherence (0–1) of each closed task that had a plan. */
  planAdherence: number[];
  executions: { risk: string; status: string; count: number }[];
  /** What the operator was asked to decide, by subject (`plan`, `execution`, `routing`) and outcome. */
  approvals: { subject: ApprovalFigureSubject; outcome: string; count: number }[];
  /** Seconds from asking to the decision (or the expiry), per decided approval, with its outcome. */
  approvalLatency: { subject: ApprovalFigureSubject; outcome: string; seconds: number }[];
  refusals: { code: string; count: number }[];
  tokens: { model: string; calls: number; prompt: number; completion: number }[];
}

export async function qualityFigures(db: Executor, since?: Date): Promise<QualityFigures> {
  const from = since ?? new Date(0);
  const tasks = await db
    .selectFrom("sessions")
    .select(["outcome", (eb) => eb.fn.countAll<string>().as("n")])
    .where("outcome", "is not", null)
    .where("closed_at", ">=", from)
    .groupBy("outcome")
    .execute();
  const adherence = await db
    .selectFrom("feedback")
    .select("plan_adherence")
    .where("plan_adherence", "is not", null)
    .where("created_at", ">=", from)
    .execute();
  const executions = await db
    .selectFrom("executions")
    .select(["risk", "status", (eb) => eb.fn.countAll<string>().as("n")])
    .where("created_at", ">=", from)
    .groupBy(["risk", "status"])
    .execute();
  const approvals = await db
    .selectFrom("approvals")
    .select(["subject", "status", (eb) => eb.fn.countAll<string>().as("n")])
    .where("created_at", ">=", from)
    .groupBy(["subject", "status"])
    .execute();
  const latency = await db
    .selectFrom("approvals")
    .select(["subject", "status", sql<string>`extract(epoch from (decided_at - created_at))`.as("seconds")])
    .where("status", "in", ["approved", "denied", "expired"])
    .where("decided_at", "is not", null)
    .where("created_at", ">=", from)
    .execute();
  // A plan that waited for an operator: decided (approved, perhaps superseded since, or denied),
  // still proposed (pending), or replaced before anyone decided (superseded).
  const planOutcome = sql<string>`CASE WHEN status = 'denied' THEN 'denied' WHEN decided_at IS NOT NULL THEN 'approved' WHEN status = 'proposed' THEN 'pending' ELSE 'superseded' END`;
  const plans = await db
    .selectFrom("plans")
    .select([
      planOutcome.as("outcome"),
      sql<string | null>`extract(epoch from (decided_at - created_at))`.as("seconds"),
    ])
    .where("needs_approval", "=", true)
    .where("created_at", ">=", from)
    .execute();
  const refusals = await db
    .selectFrom("classifications")
    .select(["decision", (eb) => eb.fn.countAll<string>().as("n")])
    .where("decision", "like", "refused:%")
    .where("created_at", ">=", from)
    .groupBy("decision")
    .execute();
  const tokens = await db
    .selectFrom("token_usage")
    .select([
      "model",
      (eb) => eb.fn.countAll<string>().as("calls"),
      (eb) => eb.fn.sum<string>("prompt_tokens").as("prompt"),
      (eb) => eb.fn.sum<string>("completion_tokens").as("completion"),
    ])
    .where("created_at", ">=", from)
    .groupBy("model")
    .execute();
  return {
    tasksByOutcome: tasks.map((t) => ({ outcome: String(t.outcome), count: Number(t.n) })),
    planAdherence: adherence.map((a) => Number(a.plan_adherence)),
    executions: executions.map((e) => ({ risk: e.risk, status: e.status, count: Number(e.n) })),
    approvals: [
      ...approvals.map((a) => ({ subject: a.subject, outcome: a.status, count: Number(a.n) })),
      ...countBy(plans.map((p) => p.outcome)).map(([outcome, count]) => ({
        subject: "plan" as const,
        outcome,
        count,
      })),
    ],
    approvalLatency: [
      ...latency.map((l) => ({
        subject: l.subject,
        outcome: l.status,
        seconds: Math.max(0, Number(l.seconds)),
      })),
      ...plans
        .filter((p) => p.seconds !== null && (p.outcome === "approved" || p.outcome === "denied"))
        .map((p) => ({
          subject: "plan" as const,
          outcome: p.outcome,
          seconds: Math.max(0, Number(p.seconds)),
        })),
    ],
    refusals: refusals.map((r) => ({
      code: String(r.decision).slice("refused:".length),
      count: Number(r.n),
    })),
    tokens: tokens.map((t) => ({
      model: t.model,
      calls: Number(t.calls),
      prompt: Number(t.prompt ?? 0),
      completion: Number(t.completion ?? 0),
    })),
  };
}

function countBy(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts];
}
