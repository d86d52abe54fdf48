import { alertGroupOfSession } from "../../../store/alert-groups.ts";
import type { Db } from "../../../store/db.ts";
import { runsOfPlan } from "../../../store/executions.ts";
import { planWithSteps } from "../../../store/plans.ts";
import { runbooksOfferedTo } from "../../../store/runbooks.ts";
import type { Card } from "../card.ts";
import { riskBadge, stepIcon } from "../risk-badge.ts";
import { resolvedWhilePending } from "./alert-card.ts";
import { changesLine, decisionLine, executionProgress, snapshotLine } from "./card-lines.ts";

/**
 * The plan card: numbered steps with a risk badge each, what approval the plan needs, and once
 * decided who decided how and when. Re-rendered from the database on every change (step ticks).
 */
export async function buildPlanCard(
  db: Db,
  sessionId: string,
  generation: number,
  decisionNote: string | null = null,
): Promise<Card | undefined> {
  const found = await planWithSteps(db, sessionId, generation);
  if (!found) return undefined;
  const { plan, steps } = found;
  const executions = await runsOfPlan(db, sessionId, generation);
  const latestRun = new Map(executions.filter((e) => e.step_seq !== null).map((e) => [e.step_seq, e]));
  const lines = steps.map((s) => {
    const target = s.target ? ` on \`${s.target}\`` : "";
    const note = s.status === "replaced" && s.replaced_reason ? ` (replaced: ${s.replaced_reason})` : "";
    const elapsed = s.started_at && s.finished_at ? ` (${seconds(s.started_at, s.finished_at)})` : "";
    const run = latestRun.get(s.seq);
    const snapshot = run ? snapshotLine(run.snapshot) : null;
    const result = run ? ` · ${executionProgress(run).line}${snapshot ? ` · ${snapshot}` : ""}` : "";
    return `${stepIcon(s.status)} ${s.seq}. ${s.title}${target} — ${riskBadge(s.risk)}${elapsed}${result}${note}`;
  });
  const risky = steps.some((s) => s.risk === "destructive");
  const card: Card = {
    kind: "plan",
    title: generation > 1 ? `📋 Revised plan (v${generation})` : "📋 Plan",
    lines: lines.length > 0 ? lines : ["(no steps)"],
  };
  for (const runbook of await runbooksOfferedTo(db, sessionId))
    card.lines.push(`📘 runbook offered for \`${runbook.entity}\`: ${runbook.title} (\`${runbook.slug}\`)`);
  const lastFinished = executions.filter((e) => e.finished_at !== null && e.step_seq !== null).at(-1);
  const output = lastFinished ? executionProgress(lastFinished).output : undefined;
  if (lastFinished && output) card.output = { ...output, label: `output of step ${lastFinished.step_seq}` };
  if (plan.status === "proposed" && plan.needs_approval) {
    card.badge = "needs your approval";
    card.hint =
      "React ✅ to approve (config changes in this plan may then run), ❌ to deny, or reply “go ahead” in the thread; " +
      "reply “changes: <what to do instead>” to send it back for a revised plan." +
      (risky ? " Destructive steps still ask for their own typed confirmation." : "");
    card.actions = [
      { id: "approve", label: "Approve plan", style: "primary" },
      { id: "deny", label: "Deny", style: "danger" },
    ];
    card.reactions = ["✅", "❌"];
    const alert = await alertGroupOfSession(db, sessionId);
    const resolved = alert && resolvedWhilePending(alert);
    if (resolved) card.lines.push(resolved);
  } else if (plan.status === "proposed") {
    card.badge = "read-only: no approval needed";
  } else if (plan.changes_requested) {
    card.status = changesLine(plan.changes_requested);
  } else {
    card.status = decisionLine(
      plan.status,
      plan.decided_by,
      decisionNote ?? plan.decided_via,
      plan.decided_at,
    );
  }
  return card;
}

function seconds(from: Date, to: Date): string {
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(0, Math.round(ms / 1000))} s`;
}
