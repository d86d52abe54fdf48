import type { Db } from "../../../store/db.ts";
import { getQuestion } from "../../../store/questions.ts";
import type { Card } from "../card.ts";

/** A question with numbered options; answered by number or in words, in the thread. */
export async function buildQuestionCard(db: Db, questionId: string): Promise<Card | undefined> {
  const q = await getQuestion(db, questionId);
  if (!q) return undefined;
  const options = Array.isArray(q.options) ? q.options : [];
  const lines = [q.prompt];
  if (q.why) lines.push(`(why I ask: ${q.why})`);
  options.forEach((option, i) => {
    lines.push(`${i + 1}. ${option}`);
  });
  const card: Card = { kind: "question", title: "❓ Question", lines };
  if (q.status === "open") {
    card.hint =
      options.length > 0 ? "Reply in this thread with a number or your own answer." : "Reply in this thread.";
    card.actions = options
      .slice(0, 5)
      .map((option, i) => ({ id: `option:${i + 1}` as const, label: `${i + 1}. ${option}`.slice(0, 75) }));
  } else {
    card.status = `answered${q.answered_by ? ` by ${q.answered_by}` : ""}: ${q.answer ?? ""}`;
  }
  return card;
}
