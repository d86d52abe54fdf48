import type { Kysely } from "kysely";
import { getExecution, isTerminalExecutionStatus } from "../../store/executions.ts";
import type { Database, Execution } from "../../store/schema.ts";
import type { EventBus } from "../events/port.ts";

/**
 * Waits up to `waitMs` for an execution to end, driven by execution.finished events (the row is
 * read once after subscribing, once per matching event and once at the deadline: no polling).
 * Returns the row as it is at the end of the wait, finished or not.
 */
export async function waitForResult(
  db: Kysely<Database>,
  events: EventBus,
  executionId: string,
  waitMs: number,
): Promise<Execution | undefined> {
  let wake: () => void = () => {};
  const woken = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const unsubscribe = events.subscribe("execution.finished", (event) => {
    if (event.executionId === executionId) wake();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const first = await getExecution(db, executionId);
    if (!first || isTerminalExecutionStatus(first.status) || waitMs <= 0) return first;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([woken, deadline]);
    return await getExecution(db, executionId);
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
