import { readFile } from "node:fs/promises";
import type { Db } from "../store/db.ts";
import { currentPlan, nextOpenStep } from "../store/plans.ts";
import { openQuestion } from "../store/questions.ts";
import type { Session } from "../store/sessions.ts";

const SOUL_URL = new URL("../SOUL.md", import.meta.url);

export async function loadSoul(path: string | URL = SOUL_URL): Promise<string> {
  return readFile(path, "utf8");
}

/** The system prompt: SOUL.md, then the session's state as the store has it (goal, plan, question). */
export async function systemPrompt(db: Db, soul: string, session: Session, now: Date): Promise<string> {
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
    const next = nextOpenStep(plan.steps);
    lines.push(next ? `Next open step: ${next.seq} "${next.title}".` : "Every step is closed.");
  } else {
    lines.push("Plan: none.");
  }
  const question = await openQuestion(db, session.id);
  if (question) lines.push(`Open question to the operator: "${question.prompt}" — wait for the answer.`);
  return `${soul.trim()}\n\n${lines.join("\n")}`;
}
