import type { Db } from "./db.ts";
import { recordGoal } from "./goals.ts";
import { insertPlanGeneration, type NewStep, supersedeOpenSteps } from "./plans.ts";
import { markPlanProposed, replanForGoal } from "./session-lifecycle.ts";

/**
 * set_goal, in one transaction: the goal recorded (an earlier one superseded), the open steps of the
 * current plan superseded, and the session back to planning.
 */
export async function setTaskGoal(
  db: Db,
  sessionId: string,
  goal: string,
  now: Date,
): Promise<{ superseded: string | null; replaced: number }> {
  return db.transaction().execute(async (tx) => {
    const recorded = await recordGoal(tx, sessionId, goal, now);
    const replaced = await supersedeOpenSteps(tx, sessionId, now);
    await replanForGoal(tx, sessionId, goal, now);
    return { superseded: recorded.superseded?.goal ?? null, replaced };
  });
}

/** propose_plan, in one transaction: the next plan generation and the session waiting on it. */
export async function proposeTaskPlan(
  db: Db,
  sessionId: string,
  steps: readonly NewStep[],
  options: { needsApproval: boolean; now: Date },
): Promise<{ generation: number }> {
  return db.transaction().execute(async (tx) => {
    const inserted = await insertPlanGeneration(tx, sessionId, steps, options);
    await markPlanProposed(tx, sessionId, options.needsApproval, options.now);
    return inserted;
  });
}
