import { questionRaised } from "../../store/domain-events.ts";
import { askQuestion } from "../../store/questions.ts";
import { markAwaitingAnswer } from "../../store/session-lifecycle.ts";
import { now } from "../tool-deps.ts";
import { ok, type ToolResult } from "../tool-result.ts";
import { loadOpenSession, publish, type TaskToolDeps } from "./task-deps.ts";

export interface OperatorQuestion {
  prompt: string;
  why?: string;
  options?: string[];
}

/** ask_operator: records the open question, parks the session in awaiting_input and tells chat. */
export async function askOperator(
  deps: TaskToolDeps,
  sessionId: string,
  question: OperatorQuestion,
): Promise<ToolResult> {
  const loaded = await loadOpenSession(deps, sessionId, "ask_operator");
  if ("refusal" in loaded) return loaded.refusal;
  const at = now(deps);
  const asked = await askQuestion(deps.db, { sessionId, ...question }, at);
  await markAwaitingAnswer(deps.db, sessionId, at);
  await publish(deps, questionRaised({ sessionId, questionId: asked.id }));
  return ok({
    kind: "question_asked",
    question_id: asked.id,
    next: "Question sent. End your turn now; the operator's answer arrives as their next message.",
  });
}
