import { readFile } from "node:fs/promises";
import type { Db } from "../store/db.ts";
import { lastOperatorMessage } from "../store/messages.ts";
import { currentPlan, nextOpenStep } from "../store/plans.ts";
import { openQuestion } from "../store/questions.ts";
import { offerRunbooks } from "../store/runbooks.ts";
import type { Session } from "../store/sessions.ts";
import { entitiesInPlay } from "../store/task-graph.ts";
import { grantLines, TurnGrants } from "./grants-in-play.ts";

const SOUL_URL = new URL("../SOUL.md", import.meta.url);

export async function loadSoul(path: string | URL = SOUL_URL): Promise<string> {
  return readFile(path, "utf8");
}

/**
 * The system prompt: SOUL.md, then the session's state as the store has it (goal, plan, question),
 * then what the store knows about the entities in play (adopted runbooks, live standing grants).
 * `grants` is the turn's (agent/turn.ts): one per turn, so grants are not read every round.
 */
export async function systemPrompt(
  db: Db,
  soul: string,
  session: Session,
  now: Date,
  grants: TurnGrants = new TurnGrants(),
): Promise<string> {
  const lines = [`## This session (${now.toISOString()})`, `Status: ${session.status}.`];
  lines.push(session.goal ? `Goal: ${session.goal}` : "Goal: none yet — call set_goal first.");
  if (session.requires_replan) {
    lines.push(
      "This session was finished and reopened: set_goal and propose_plan again before any mutation.",
    );
  }
  const plan = await currentPlan(db, session.id);
  if (plan && plan.plan.status !== "superseded") {
    lines.push(`Plan ${plan.plan.generation} (${plan.plan.status}):`);
    for (const step of plan.steps) {
      const extra = step.replaced_reason ? ` (${step.replaced_reason})` : "";
      lines.push(
        `  ${step.seq}. [${step.status}${extra}] ${step.title}${step.target ? ` @${step.target}` : ""} — ${step.risk ?? "risk unstated"}`,
      );
    }
    const changes = plan.plan.changesRequested;
    if (changes) {
      lines.push(
        `Changes requested by ${changes.by} on plan ${plan.plan.generation}: "${changes.reason}". Do not run this plan; propose a revised plan (propose_plan) that does what they asked.`,
      );
    } else {
      const next = nextOpenStep(plan.steps);
      lines.push(next ? `Next open step: ${next.seq} "${next.title}".` : "Every step is closed.");
    }
  } else {
    lines.push("Plan: none.");
  }
  const question = await openQuestion(db, session.id);
  if (question) lines.push(`Open question to the operator: "${question.prompt}" — wait for the answer.`);
  const said = (await lastOperatorMessage(db, session.id))?.content ?? "";
  const text = `${session.goal ?? ""}\n${said}`;
  const entities = await entitiesInPlay(db, session.id, text);
  lines.push(...(await runbookLines(db, session, text, entities)));
  lines.push(...grantLines(await grants.of(db, session.id, entities, now)));
  return `${soul.trim()}\n\n${lines.join("\n")}`;
}

/**
 * Adopted runbooks for what this task touches, when its goal (or the operator's last words) shows
 * the symptom they came from: offered (and counted) by the store, read by the agent first.
 */
async function runbookLines(
  db: Db,
  session: Session,
  text: string,
  entities: readonly string[],
): Promise<string[]> {
  const offered = await offerRunbooks(db, { sessionId: session.id, text, entities });
  return offered.map((r) => {
    const ended = Object.entries(r.use.outcomes)
      .filter(([, n]) => n > 0)
      .map(([outcome, n]) => `${n} ${outcome}`)
      .join(", ");
    const use =
      r.use.offered > 0 ? ` Offered to ${r.use.offered} earlier task(s)${ended ? `: ${ended}` : ""}.` : "";
    return (
      `Adopted runbook for ${r.entity} when "${r.symptom.join(" ")}": ${r.title} (\`${r.slug}\`) — read it with ` +
      `get_knowledge_content before you plan, and follow it unless what you see differs.${use}`
    );
  });
}
