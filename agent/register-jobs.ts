import type { EventBus } from "../jobs/events/port.ts";
import { QueueClosedError } from "../jobs/queue/errors.ts";
import type { QueuePort } from "../jobs/queue/port.ts";
import { agentMessage } from "../store/domain-events.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";
import { type ContinueOptions, handleContinue, onExecutionFinished } from "./continuation.ts";
import { parkCrashingTurn } from "./crash-loop.ts";
import { learnFromFeedback } from "./learn.ts";
import { TurnInterrupted } from "./turn.ts";
import { requestTurn } from "./turn-runner.ts";
import { DEFAULT_CONCURRENT_TURNS, TurnSlots } from "./turn-slots.ts";

export interface AgentJobOptions {
  /**
   * Turn slots (model.concurrentTurns): turns of different sessions calling the model at once per
   * process. A turn whose tool calls run (a command it waits for) holds none. Default 16.
   */
  concurrency?: number;
  continueOptions?: ContinueOptions;
}

export interface AgentJobs {
  unsubscribe(): void;
  /** Resolves when every turn this process started has returned (a stop waits for it before closing the database). */
  settled(): Promise<void>;
}

/** Turn jobs per process beyond the turn slots: turns waiting on executions they started. */
export const WAITING_TURNS = 128;

/**
 * The agent's queue handlers (`agent-turn`, `continue`, `learn`) and the execution.finished
 * subscriber that enqueues continuations.
 */
export function registerAgentJobs(
  ports: {
    queue: QueuePort;
    events: Pick<EventBus, "subscribe">;
    /** The process begins to stop (before the queue closes): a turn takes no new step. */
    stopping?: AbortSignal;
  },
  agentDeps: AgentDeps,
  options: AgentJobOptions = {},
): AgentJobs {
  const slots = new TurnSlots(options.concurrency ?? DEFAULT_CONCURRENT_TURNS);
  // A job per turn in progress: those waiting on their tool calls hold a job but no slot. Bounded,
  // so one process on a shared queue does not take every session's turn while others sit idle.
  const concurrency = slots.limit + WAITING_TURNS;
  const stoppingOf = (job: { stopping: AbortSignal }) =>
    ports.stopping ? AbortSignal.any([job.stopping, ports.stopping]) : job.stopping;
  // Read per job, not copied once: the deps stay the caller's (a test swaps the model between jobs).
  const jobDeps = (): AgentDeps => ({ ...agentDeps, queue: ports.queue, turnSlots: slots });
  const deps = agentDeps;
  // The queue stops awaiting a handler when its grace is over; the turn itself still has to reach its end.
  const running = new Set<Promise<void>>();
  const tracked = (work: Promise<void>) => {
    running.add(work);
    return work.finally(() => running.delete(work));
  };
  ports.queue.register(
    "agent-turn",
    async (job) => {
      await tracked(
        reportFailure(deps, job.data.sessionId, () =>
          requestTurn(jobDeps(), job.data.sessionId, job.data.reason, {
            stopping: stoppingOf(job),
            abort: job.signal,
          }),
        ),
      );
    },
    // A turn resumes from the transcript: one whose process died is run again, not failed (a few times).
    { concurrency, rerunInterrupted: true, onCrashLoop: (job) => parkCrashingTurn(deps, job) },
  );
  ports.queue.register(
    "continue",
    async (job) => {
      await tracked(
        reportFailure(deps, job.data.sessionId, () =>
          handleContinue(jobDeps(), job.data, {
            ...options.continueOptions,
            stopping: stoppingOf(job),
            abort: job.signal,
          }),
        ),
      );
    },
    // A turn resumes from the transcript: one whose process died is run again, not failed (a few times).
    { concurrency, rerunInterrupted: true, onCrashLoop: (job) => parkCrashingTurn(deps, job) },
  );
  ports.queue.register("learn", async () => {
    const report = await learnFromFeedback(deps.db, clockOf(deps));
    deps.logger?.info({ feedback: report.feedback, patterns: report.patterns.length }, "learning job done");
  });
  const unsubscribe = ports.events.subscribe("execution.finished", async (event) => {
    try {
      await onExecutionFinished({ db: deps.db, queue: ports.queue }, event);
    } catch (error) {
      // Stopping: the start-up catch-up (catch-up.ts) continues an execution no continuation reported.
      if (!(error instanceof QueueClosedError)) throw error;
    }
  });
  return {
    unsubscribe,
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
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
    if (error instanceof TurnInterrupted) {
      // A normal stop: the session owes this turn and the next start resumes it (agent/resume.ts).
      deps.logger?.info({ sessionId, reason: error.message }, "agent turn stopped at a checkpoint");
      return;
    }
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
