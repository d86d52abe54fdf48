import { z } from "zod";
import { redact } from "../policy/redact.ts";
import type { RefusalShown } from "../policy/refusal-identity.ts";
import { agentMessage } from "../store/domain-events.ts";
import { appendMessage } from "../store/messages.ts";
import { type AgentDeps, clockOf } from "./agent-deps.ts";
import { REPEATED_REFUSAL_NOTE } from "./operator-hold.ts";

/**
 * The model sent a call the gates had already refused in this turn, with the same arguments, and was
 * refused the same way (policy/refusal-identity.ts): asking it again would cost another model call
 * and change nothing. The operator is shown the refusal in a person's words, and the model is told
 * once, in the transcript, why its turn ended.
 */
export async function endOnRepeatedRefusal(
  deps: AgentDeps,
  sessionId: string,
  tool: string,
  refusals: readonly RefusalShown[],
  structured: unknown,
): Promise<void> {
  const why = refusals.map(lineOf);
  // A fan-out that was refused in part: what became of the other targets, in the result's own summary.
  const summary = fanOutSummary.safeParse(structured);
  const operatorText =
    `I stopped here: I asked for the same \`${tool}\` again, with the same arguments, and oikos refused it ` +
    `again for the same reason, so trying once more would not help.\n${why.join("\n")}\n` +
    (summary.success ? `All targets of that call: ${summary.data.summary}.\n` : "") +
    "Nothing refused was run. Reply in this thread to tell me how to go on — for example leave those " +
    "targets out, fix what is named above, or give me another approach.";
  await deps.events.publish(agentMessage({ sessionId, text: redact(operatorText), final: true }));
  const modelNote =
    `oikos ended your turn: you sent ${tool} again with the same arguments and it was refused again ` +
    `(${refusals.map((r) => (r.target ? `${r.target}: ${r.code}` : r.code)).join(", ")}). ` +
    "The operator was shown the refusal. Do not send that call again: follow the refusal's next_step, " +
    "take another approach, or ask_operator.";
  await appendMessage(
    deps.db,
    { sessionId, role: "system", content: redact(modelNote), name: REPEATED_REFUSAL_NOTE, author: "oikos" },
    clockOf(deps),
  );
}

const fanOutSummary = z.object({ kind: z.literal("fan_out"), summary: z.string().min(1) });

function lineOf(refusal: RefusalShown): string {
  const reason = refusal.reason || "refused";
  return refusal.target ? `- ${refusal.target}: ${reason}` : `- ${reason}`;
}
