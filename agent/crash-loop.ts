import type { InterruptedJob } from "../jobs/queue/port.ts";
import { agentMessage, sessionStatus } from "../store/domain-events.ts";
import { appendMessage } from "../store/messages.ts";
import { parkForOperator } from "../store/session-lifecycle.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";

/**
 * A turn job during whose every allowed run the process died (the queue's `onCrashLoop`): something
 * in this turn kills oikos, so nothing runs it again by itself. The session lets go of its turn and
 * waits for the operator (no start-up resume, idle sweep or nudge takes it up), and the operator is
 * told once, in the thread; a reply tries again. Once: the status change is conditional, so a second
 * job of the same session giving up says nothing more.
 */
export async function parkCrashingTurn(
  deps: Pick<AgentDeps, "db" | "events" | "logger" | "clock">,
  job: InterruptedJob<{ sessionId: string }>,
): Promise<void> {
  const { sessionId } = job.data;
  const now = clockOf(deps);
  const parked = await parkForOperator(deps.db, sessionId, now);
  deps.logger?.error(
    { sessionId, job: job.id, reason: job.reason },
    "agent turn given up: its process died in every run",
  );
  if (!parked) return;
  const text =
    `This task's last step stopped oikos itself ${job.attempt} times in a row (the process died while working ` +
    "on it), so I stopped retrying it. Everything done before is kept. Reply in this thread to try again.";
  await appendMessage(
    deps.db,
    { sessionId, role: "system", content: text, name: "crash-loop", author: "oikos" },
    now,
  );
  await deps.events.publish(sessionStatus(sessionId, "awaiting_input"));
  await deps.events.publish(agentMessage({ sessionId, text, final: true }));
}
