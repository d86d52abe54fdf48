import { redact } from "../policy/redact.ts";
import { hasSessionCard } from "../store/chat-cards.ts";
import type { Db } from "../store/db.ts";
import { type DomainEvent, taskCompleted } from "../store/domain-events.ts";
import { appendMessage, recentMessages } from "../store/messages.ts";
import { recentlyClosedSessions } from "../store/sessions.ts";

const LOOKBACK_MS = 24 * 60 * 60_000;

/**
 * A task closed by complete_task whose process died after the commit and before the result was
 * recorded: the operator was never told (the summary follows `task.completed`), and no turn is
 * owed, since the session is closed. Its mark is the round's complete_task call without a result.
 * The event goes out again (unless the summary card is already posted) and the result is recorded,
 * so it is said once. At start-up every such task; the idle sweep passes `closedBefore`, so a live
 * process between its commit and its result is not taken for a dead one. Returns the sessions.
 */
export async function reportUnreportedCompletions(
  deps: { db: Db; events: { publish(event: DomainEvent): Promise<void> } },
  now: Date = new Date(),
  options: { closedBefore?: Date } = {},
): Promise<string[]> {
  const closed = await recentlyClosedSessions(deps.db, {
    since: new Date(now.getTime() - LOOKBACK_MS),
    ...(options.closedBefore ? { before: options.closedBefore } : {}),
  });
  const reported: string[] = [];
  for (const session of closed) {
    const call = await unansweredCompletion(deps.db, session.id);
    if (!call || !session.outcome) continue;
    const summaryPosted = await hasSessionCard(deps.db, session.id, "summary");
    if (!summaryPosted)
      await deps.events.publish(taskCompleted({ sessionId: session.id, outcome: session.outcome }));
    const text = JSON.stringify({
      kind: "task_completed",
      outcome: session.outcome,
      note: "oikos restarted after this task was closed; the operator was told then. Do not call any more tools for it.",
    });
    await appendMessage(
      deps.db,
      {
        sessionId: session.id,
        role: "tool",
        content: redact(text),
        toolCallId: call,
        name: "complete_task",
        author: "mcp",
      },
      now,
    );
    reported.push(session.id);
  }
  return reported;
}

/** The id of the last round's complete_task call when it has no recorded result. */
async function unansweredCompletion(db: Db, sessionId: string): Promise<string | undefined> {
  const { messages } = await recentMessages(db, sessionId, 50);
  const round = [...messages].reverse().find((m) => m.role === "assistant" && (m.toolCalls?.length ?? 0) > 0);
  const call = round?.toolCalls?.find((c) => c.name === "complete_task");
  if (!round || !call) return undefined;
  const answered = messages.some(
    (m) => m.role === "tool" && m.toolCallId === call.id && BigInt(m.id) > BigInt(round.id),
  );
  return answered ? undefined : call.id;
}
