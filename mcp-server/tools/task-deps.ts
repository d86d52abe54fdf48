import { refusal } from "../../policy/refusals.ts";
import type { DomainEvent } from "../../store/domain-events.ts";
import { getSession, type Session, TERMINAL_SESSION_STATUSES } from "../../store/sessions.ts";
import type { ToolDeps } from "../tool-deps.ts";
import { refused, type ToolResult } from "../tool-result.ts";

/** What the task tools need beyond ToolDeps: somewhere to publish domain events (plan cards, questions). */
export interface TaskToolDeps extends ToolDeps {
  events?: { publish(event: DomainEvent): Promise<void> };
}

export async function publish(deps: TaskToolDeps, event: DomainEvent): Promise<void> {
  if (!deps.events) return;
  try {
    await deps.events.publish(event);
  } catch (error) {
    // Events tell listeners to look at the store; the write already happened, so a failed publish is logged only.
    deps.logger?.warn({ err: error, event: event.type }, "event publish failed");
  }
}

/** The session row for a session-scoped task tool, or a refusal the model can act on. */
export async function loadOpenSession(
  deps: TaskToolDeps,
  sessionId: string,
  tool: string,
): Promise<{ session: Session } | { refusal: ToolResult }> {
  const session = await getSession(deps.db, sessionId);
  if (!session) {
    return {
      refusal: refused(
        refusal("unknown_session", `${tool}: session ${sessionId} does not exist.`, "Tell the operator."),
      ),
    };
  }
  if (TERMINAL_SESSION_STATUSES.includes(session.status)) {
    return {
      refusal: refused(
        refusal(
          "task_closed",
          `${tool} refused: this task is already ${session.status} (outcome ${session.outcome ?? "unknown"}).`,
        ),
      ),
    };
  }
  return { session };
}
