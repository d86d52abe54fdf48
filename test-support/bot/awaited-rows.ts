import type { ChatHarness } from "./chat-harness.ts";
import { queuedJobs } from "./chat-harness.ts";
import { eventually } from "./eventually.ts";

/** The session a message posted on a chat platform started, once the core has made it. */
export function sessionOfThread(h: ChatHarness, thread: string) {
  return eventually(`the session of thread ${thread}`, () =>
    h.store.db.selectFrom("sessions").selectAll().where("thread", "=", thread).executeTakeFirst(),
  );
}

/** The platform message id of the card posted for `subjectId` (an approval, a plan), once posted. */
export function cardMessageOf(h: ChatHarness, subjectId: string): Promise<string> {
  return eventually(`the card of ${subjectId}`, async () => {
    const row = await h.store.db
      .selectFrom("chat_cards")
      .select("message_id")
      .where("subject_id", "=", subjectId)
      .executeTakeFirst();
    return row?.message_id;
  });
}

/** Whether an `execute` job for this execution is on the queue. */
export async function executeQueued(h: ChatHarness, executionId: string): Promise<boolean> {
  return (await queuedJobs(h, "execute")).some(
    (j) => (j as { executionId?: string }).executionId === executionId,
  );
}
