import type { EventBus } from "../jobs/events/port.ts";
import type { QueuePort } from "../jobs/queue/port.ts";
import { agentMessage } from "../store/domain-events.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";
import { type ContinueOptions, handleContinue, onExecutionFinished } from "./continuation.ts";
import { learnFromFeedback } from "./learn.ts";
import { requestTurn } from "./turn-runner.ts";

export interface AgentJobOptions {
  /** Turns of different sessions run in parallel up to this many per process. Default 4. */
  concurrency?: number;
  continueOptions?: ContinueOptions;
}

/**
 * The agent's queue handlers (`agent-turn`, `continue`, `learn`) and the execution.finished
 * subscriber that enqueues continuations. Returns the unsubscribe function.
 */
export function registerAgentJobs(
  ports: { queue: QueuePort; events: Pick<EventBus, "subscribe"> },
  deps: AgentDeps,
  options: AgentJobOptions = {},
): () => void {
  const concurrency = options.concurrency ?? 4;
  ports.queue.register(
    "agent-turn",
    async (job) => {
      await reportFailure(deps, job.data.sessionId, () =>
        requestTurn(deps, job.data.sessionId, job.data.reason),
      );
    },
    { concurrency },
  );
  ports.queue.register(
    "continue",
    async (job) => {
      await reportFailure(deps, job.data.sessionId, () =>
        handleContinue(deps, job.data, options.continueOptions),
      );
    },
    { concurrency },
  );
  ports.queue.register("learn", async () => {
    const report = await learnFromFeedback(deps.db, clockOf(deps));
    deps.logger?.info({ feedback: report.feedback, patterns: report.patterns.length }, "learning job done");
  });
  return ports.events.subscribe("execution.finished", async (event) => {
    await onExecutionFinished({ db: deps.db, queue: ports.queue }, event);
  });
}

/** A turn that crashed is logged and the operator told how to go on; the job still fails for the queue's record. */
async function reportFailure(
  deps: AgentDeps,
  sessionId: string,
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    deps.logger?.error({ err: error, sessionId }, "agent turn failed");
    await deps.events
      .publish(
        agentMessage({
          sessionId,
          text: 'Something went wrong on my side during this turn (it is logged). Nothing was lost: reply "continue" to retry.',
          final: true,
        }),
      )
      .catch(() => {});
    throw error;
  }
}
