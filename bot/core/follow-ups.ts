import type { EventBus } from "../../jobs/events/port.ts";
import { parseDomainEvent } from "../../jobs/events/port.ts";
import type { QueuePort } from "../../jobs/queue/port.ts";
import type { ConsentFollowUp } from "../../store/consent.ts";

/**
 * Carries out what a consent decision asks for: queue the approved execution, wake the agent,
 * publish the events the cards are edited from. Each follow-up is attempted; failures are
 * returned per item, not thrown half-way.
 */
export async function applyFollowUps(
  followUps: readonly ConsentFollowUp[],
  deps: { queue: QueuePort; events: EventBus },
): Promise<{ applied: number; failed: { followUp: ConsentFollowUp; error: unknown }[] }> {
  const failed: { followUp: ConsentFollowUp; error: unknown }[] = [];
  let applied = 0;
  for (const followUp of followUps) {
    try {
      if (followUp.kind === "enqueue" && followUp.queue === "execute") {
        await deps.queue.enqueue("execute", followUp.data, { jobId: followUp.jobId });
      } else if (followUp.kind === "enqueue") {
        // No jobId: concurrent turn requests merge in the session's turn lease, and a dedupe id
        // here would drop a second decision while the first one's job is still waiting.
        await deps.queue.enqueue("agent-turn", followUp.data);
      } else {
        await deps.events.publish(parseDomainEvent(followUp.event));
      }
      applied++;
    } catch (error) {
      failed.push({ followUp, error });
    }
  }
  return { applied, failed };
}
