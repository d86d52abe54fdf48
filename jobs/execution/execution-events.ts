import type { Execution } from "../../store/schema.ts";
import type { EventBus } from "../events/port.ts";

/** execution.finished, carrying the plan step so the continuation can link and close it. */
export async function publishFinished(events: EventBus, row: Execution, status: string): Promise<void> {
  await events.publish({
    type: "execution.finished",
    sessionId: row.session_id,
    executionId: row.id,
    status,
    ...(row.step_seq !== null ? { stepSeq: row.step_seq } : {}),
  });
}
