import { cancelApprovalOfExecution } from "../../store/approvals.ts";
import { OPEN_EXECUTION_STATUSES, transitionExecution } from "../../store/executions.ts";
import { recordFeedback } from "../../store/feedback.ts";
import { closeActiveGoal, goalSince } from "../../store/goals.ts";
import { upsertKnowledge } from "../../store/knowledge.ts";
import { planAdherence } from "../../store/plans.ts";
import { closeWindows } from "../../store/windows.ts";
import { now } from "../tool-deps.ts";
import { ok, refuse, type ToolResult } from "../tool-result.ts";
import { loadOpenSession, publish, type TaskToolDeps } from "./task-deps.ts";

export const OUTCOMES = ["success", "partial", "failure"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface CompleteTaskInput {
  outcome: string;
  summary: string;
  verification?: string;
  root_cause?: string;
  left_open?: string;
}

/** An outcome outside the enum is never read as success. */
export function normaliseOutcome(value: string): Outcome {
  const v = value.trim().toLowerCase();
  return (OUTCOMES as readonly string[]).includes(v) ? (v as Outcome) : "partial";
}

export async function completeTask(
  deps: TaskToolDeps,
  sessionId: string,
  input: CompleteTaskInput,
): Promise<ToolResult> {
  const session = await deps.db
    .selectFrom("sessions")
    .selectAll()
    .where("id", "=", sessionId)
    .executeTakeFirst();
  if (session && ["done", "failed"].includes(session.status)) {
    return refuse(
      `complete_task refused: the task is already complete (outcome ${session.outcome ?? "unknown"}). Do not call ` +
        "complete_task again. If the operator pointed out something still wrong, answer them; a new request reopens the " +
        "session and needs set_goal + propose_plan.",
    );
  }
  const loaded = await loadOpenSession(deps, sessionId, "complete_task");
  if ("refusal" in loaded) return loaded.refusal;
  const { requires_replan: reopened, reopened_at: reopenedAt } = loaded.session;
  if (reopened && reopenedAt && !(await goalSince(deps.db, sessionId, reopenedAt))) {
    return refuse(
      "complete_task refused: the previous task of this session is already complete; the operator's new message " +
        "reopened the session. Do not complete it again. If they asked for something new, call set_goal and " +
        "propose_plan; if not, just answer them.",
    );
  }
  const outcome = normaliseOutcome(input.outcome);
  const at = now(deps);
  const open = await deps.db
    .selectFrom("executions")
    .select(["id", "status", "target", "command"])
    .where("session_id", "=", sessionId)
    .where("status", "in", [...OPEN_EXECUTION_STATUSES])
    .execute();
  if (outcome === "success" && open.length > 0) {
    return refuse(
      `complete_task(success) refused: ${open.length} execution(s) of this session are still open ` +
        `(${open.map((e) => `${e.id} ${e.status} on ${e.target}`).join("; ")}). Wait for their results (you are ` +
        "resumed when they finish) and verify, or complete with outcome partial and say what is left.",
      { open: open.map((e) => ({ id: e.id, status: e.status })) },
    );
  }
  const discovered =
    loaded.session.live_discovery ||
    (await deps.db
      .selectFrom("executions")
      .select("id")
      .where("session_id", "=", sessionId)
      .where("status", "=", "completed")
      .executeTakeFirst()) !== undefined;
  if (outcome === "success" && discovered && !loaded.session.entity_writeback) {
    return refuse(
      "complete_task(success) refused: this task ran commands against live targets but wrote nothing back. Call " +
        "update_entity_attributes (facts you learned: versions, IPs, states) and create_relationship (dependencies you " +
        "found), then complete_task again. If nothing was learned, complete with outcome partial.",
    );
  }
  const adherence = await planAdherence(deps.db, sessionId);
  const cancelled = await deps.db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable("sessions")
      .set({
        status: outcome === "failure" ? "failed" : "done",
        outcome,
        summary: input.summary,
        closed_at: at,
        updated_at: at,
        last_activity_at: at,
      })
      .where("id", "=", sessionId)
      .where("status", "not in", ["done", "failed"])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return null;
    await closeActiveGoal(tx, sessionId, outcome === "failure" ? "failed" : "done", input.summary, at);
    const approvals: string[] = [];
    for (const execution of open.filter((e) => e.status !== "running")) {
      const cancelledExecution = await transitionExecution(tx, execution.id, {
        from: ["pending_approval", "approved", "queued"],
        to: "cancelled",
        reason: "task completed",
        now: at,
      });
      if (cancelledExecution) {
        const approval = await cancelApprovalOfExecution(tx, execution.id, "complete_task", at);
        if (approval) approvals.push(approval.id);
      }
    }
    const rest = await tx
      .updateTable("approvals")
      .set({ status: "cancelled", decided_by: "complete_task", channel: "system", decided_at: at })
      .where("session_id", "=", sessionId)
      .where("status", "=", "pending")
      .returning("id")
      .execute();
    approvals.push(...rest.map((r) => r.id));
    await closeWindows(tx, sessionId);
    await recordFeedback(
      tx,
      {
        sessionId,
        outcome,
        planAdherence: adherence.ratio,
        rootCause: input.root_cause ?? null,
        notes: input.summary,
      },
      at,
    );
    return approvals;
  });
  if (cancelled === null) {
    return refuse(
      "complete_task refused: the task was completed meanwhile. Do not call complete_task again.",
    );
  }
  const knowledge = await writeSessionKnowledge(deps, sessionId, {
    goal: loaded.session.goal ?? "(no goal recorded)",
    outcome,
    input,
    at,
  });
  for (const approvalId of cancelled) {
    await publish(deps, {
      type: "approval.decided",
      sessionId,
      approvalId,
      decision: "cancelled",
      by: "oikos",
      via: "complete_task",
    });
  }
  await publish(deps, { type: "task.completed", sessionId, outcome });
  return ok({
    outcome,
    ...(outcome !== input.outcome
      ? { outcome_note: `"${input.outcome}" is not one of ${OUTCOMES.join(", ")}; recorded as partial` }
      : {}),
    plan_adherence: adherence.total > 0 ? `${adherence.done}/${adherence.total}` : null,
    cancelled_approvals: cancelled.length,
    knowledge: knowledge,
    next: "Task closed. Do not call any more tools for it.",
  });
}

/** The automatic knowledge entry every closed task leaves, linked to the entities it touched. */
async function writeSessionKnowledge(
  deps: TaskToolDeps,
  sessionId: string,
  facts: { goal: string; outcome: Outcome; input: CompleteTaskInput; at: Date },
): Promise<string | null> {
  const touched = new Set<string>();
  const targets = await deps.db
    .selectFrom("executions")
    .select("target")
    .where("session_id", "=", sessionId)
    .execute();
  const steps = await deps.db
    .selectFrom("plan_steps")
    .select("target")
    .where("session_id", "=", sessionId)
    .execute();
  const changes = await deps.db
    .selectFrom("entity_attribute_changes")
    .select("entity_slug")
    .where("session_id", "=", sessionId)
    .execute();
  for (const slug of [
    ...targets.map((t) => t.target),
    ...steps.map((s) => s.target),
    ...changes.map((c) => c.entity_slug),
  ]) {
    if (slug) touched.add(slug);
  }
  const known =
    touched.size === 0
      ? []
      : (
          await deps.db
            .selectFrom("entities")
            .select("slug")
            .where("slug", "in", [...touched])
            .execute()
        ).map((r) => r.slug);
  const date = facts.at.toISOString().slice(0, 10);
  const content = [
    `## Goal\n${facts.goal}`,
    `## Outcome\n${facts.outcome}`,
    `## Root cause\n${facts.input.root_cause ?? "not stated"}`,
    `## What was done\n${facts.input.summary}`,
    ...(facts.input.verification ? [`## Verification\n${facts.input.verification}`] : []),
    `## What was left\n${facts.input.left_open ?? (facts.outcome === "success" ? "nothing" : "not stated")}`,
  ].join("\n\n");
  try {
    const result = await upsertKnowledge(
      deps.db,
      {
        title: `${date}: ${facts.goal.slice(0, 80)} (${sessionId.slice(0, 8)})`,
        content,
        kind: "investigation",
        about: known,
        tags: [`session:${sessionId}`, `outcome:${facts.outcome}`, "auto"],
      },
      { by: "oikos", sessionId },
    );
    return result.status === "unknown_entities" ? null : result.slug;
  } catch (error) {
    deps.logger?.error({ err: error, sessionId }, "automatic knowledge entry failed");
    return null;
  }
}
