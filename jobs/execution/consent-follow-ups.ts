import type { ConsentFollowUp } from "../../store/consent.ts";
import type { EventBus } from "../events/port.ts";
import { parseDomainEvent } from "../events/port.ts";
import type { QueuePort } from "../queue/port.ts";

/**
 * Carries out what a store/consent decision asks for: enqueue the approved execution, resume the
 * agent, publish the decision events. The bot calls this right after approvePlan / decideApproval.
 */
export async function applyConsentFollowUps(
  followUps: readonly ConsentFollowUp[],
  ports: { queue: QueuePort; events: EventBus },
): Promise<void> {
  for (const followUp of followUps) {
    if (followUp.kind === "publish") {
      await ports.events.publish(parseDomainEvent(followUp.event));
    } else if (followUp.queue === "execute") {
      await ports.queue.enqueue("execute", followUp.data, { jobId: followUp.jobId });
    } else {
      await ports.queue.enqueue("agent-turn", followUp.data);
    }
  }
}
