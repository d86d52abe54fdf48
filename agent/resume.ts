import type { QueuePort } from "../jobs/queue/port.ts";
import { AGENT_PRINCIPAL } from "../policy/principal.ts";
import type { Db } from "../store/db.ts";
import { hasNote } from "../store/messages.ts";
import { currentPlan } from "../store/plans.ts";
import { sessionsAfterPlanDecision } from "../store/sessions.ts";
import { markTurnOwed, sessionsOwingTurns, turnOwnersOfOpenSessions } from "../store/turn-lease.ts";
import { isDeadOwner } from "./turn-owner.ts";

export interface ResumeOptions {
  /**
   * Only plans decided before this count as a consent turn that never began. At start-up every one
   * does (no turn of this process can be on its way); the idle sweep passes a past moment, so a
   * consent turn still waiting in a busy queue is not taken for a lost one.
   */
  consentDecidedBefore?: Date;
}

/**
 * At start-up and from the idle sweep (jobs/sweeps, agent/idle-sweep.ts): every session that owes a
 * turn gets one `agent-turn` (reason resume). Owed: a turn a stop interrupted at a checkpoint, a turn
 * whose process died holding the lease (a dead process on this host at once; elsewhere, a dead remote
 * worker, when its short lease runs out: the idle sweep of any live process finds it within its
 * period), and an approved plan whose consent turn never began (the process died between ✅ and the turn).
 * The resume job takes the owed turn with one conditional update, so it runs once however many
 * processes start or sweep; it says "oikos restarted; resuming …" in the thread before the model is
 * called again.
 */
export async function resumeOwedTurns(
  deps: { db: Db; queue: Pick<QueuePort, "enqueue"> },
  now: Date = new Date(),
  options: ResumeOptions = {},
): Promise<string[]> {
  await markUnstartedConsentTurns(deps.db, options.consentDecidedBefore);
  const dead = (await turnOwnersOfOpenSessions(deps.db)).filter(isDeadOwner);
  const owing = await sessionsOwingTurns(deps.db, now, dead);
  for (const session of owing) {
    await deps.queue.enqueue(
      "agent-turn",
      { sessionId: session.id, reason: "resume" },
      { jobId: `resume:${session.id}` },
    );
  }
  return owing.map((session) => session.id);
}

/** A plan approved (card says so) whose turn left no decision note: the consent turn is owed. */
async function markUnstartedConsentTurns(db: Db, decidedBefore?: Date): Promise<void> {
  const candidates = await sessionsAfterPlanDecision(db, {
    // an outside client's session is its own to drive: the agent never takes its turns
    principal: AGENT_PRINCIPAL.id,
    ...(decidedBefore ? { decidedBefore } : {}),
  });
  for (const id of candidates) {
    const plan = await currentPlan(db, id);
    if (plan?.plan.status !== "approved" || !plan.plan.needsApproval) continue;
    if (await hasNote(db, id, `decision:plan:${plan.plan.generation}`)) continue;
    await markTurnOwed(db, id);
  }
}
