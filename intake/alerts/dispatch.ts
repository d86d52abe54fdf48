import type { QueuePort } from "../../jobs/queue/port.ts";
import { claimInvestigationSlots, type InvestigationSlots } from "../../store/alert-groups.ts";
import type { Db } from "../../store/db.ts";

export type DispatchReport = InvestigationSlots;

/**
 * Starts waiting alert investigations, oldest first, while fewer than `maxConcurrent` run. An
 * investigation holds its slot until its session has a plan or an open question, or closes: the
 * agent's research is what the cap bounds, not the operator's time to answer. The slots are taken
 * in one transaction under an advisory lock (store/alert-groups.ts), so two dispatchers never
 * overfill them; the agent turns are enqueued after it commits.
 */
export async function dispatchInvestigations(
  deps: { db: Db; queue: QueuePort; dialect: "postgres" | "pglite" },
  maxConcurrent: number,
): Promise<DispatchReport> {
  const report = await claimInvestigationSlots(deps.db, { maxConcurrent, dialect: deps.dialect });
  for (const sessionId of report.started) {
    await deps.queue.enqueue("agent-turn", { sessionId, reason: "message" });
  }
  return report;
}
