import type { Db } from "../../store/db.ts";
import { type Execution, getExecution, isTerminalExecutionStatus } from "../../store/executions.ts";
import { untilReachable } from "../../store/unreachable.ts";
import type { EventBus } from "../events/port.ts";

export interface ExecutionWatch {
  /** Resolves after execution.finished for this id, after `waitMs` or at `stop`, with the row as it is then. */
  result(waitMs: number, stop?: AbortSignal): Promise<Execution | undefined>;
  /** Stop watching without reading (the execution was never created). */
  cancel(): void;
}

/**
 * Subscribes to execution.finished for one id before the execution exists (the `run` fast path:
 * nothing can finish unseen, so no initial read is needed). Event-driven: no polling.
 */
export function watchExecution(db: Db, events: EventBus, executionId: string): ExecutionWatch {
  let wake: () => void = () => {};
  const woken = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const unsubscribe = events.subscribe("execution.finished", (event) => {
    if (event.executionId === executionId) wake();
  });
  return {
    cancel: unsubscribe,
    async result(waitMs, stop) {
      let timer: NodeJS.Timeout | undefined;
      const stopped = () => wake();
      stop?.addEventListener("abort", stopped, { once: true });
      try {
        if (waitMs > 0 && !stop?.aborted) {
          await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
        }
        return await untilReachable(() => getExecution(db, executionId));
      } finally {
        clearTimeout(timer);
        stop?.removeEventListener("abort", stopped);
        unsubscribe();
      }
    },
  };
}

/**
 * Waits up to `waitMs` for an existing execution to end, driven by execution.finished events (the
 * row is read once after subscribing and once when woken or at the deadline: no polling).
 */
export async function waitForResult(
  db: Db,
  events: EventBus,
  executionId: string,
  waitMs: number,
): Promise<Execution | undefined> {
  const watch = watchExecution(db, events, executionId);
  const first = await untilReachable(() => getExecution(db, executionId));
  if (!first || isTerminalExecutionStatus(first.status) || waitMs <= 0) {
    await watch.result(0);
    return first;
  }
  return watch.result(waitMs);
}
