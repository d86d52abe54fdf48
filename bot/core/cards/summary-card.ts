import type { Db } from "../../../store/db.ts";
import { readExecutionSnapshot } from "../../../store/execution-snapshot.ts";
import { outcomeChecksOfSession } from "../../../store/previews.ts";
import { readTaskSummaryFacts } from "../../../store/task-summary.ts";
import type { Card } from "../card.ts";
import { snapshotLine } from "./card-lines.ts";
import { outcomeLines } from "./preview-section.ts";

/**
 * The completion summary, posted as a threaded reply when a task completes: outcome, what was
 * done, what changed (entity write-backs), how it was verified, knowledge written, what is left.
 * Verification and follow-ups are what complete_task was given (sessions.verification, left_open).
 */
export async function buildSummaryCard(db: Db, sessionId: string, outcome: string): Promise<Card> {
  const { session, executions, knowledgeTitles, changes } = await readTaskSummaryFacts(db, sessionId);
  const icon = outcome === "success" ? "✅" : outcome === "partial" ? "🟡" : "❌";
  const lines: string[] = [];
  if (session?.goal) lines.push(`goal: ${session.goal}`);
  if (session?.summary) lines.push(...session.summary.split("\n"));
  const finished = executions.filter((e) =>
    ["completed", "failed", "timed_out", "interrupted"].includes(e.status),
  );
  if (finished.length > 0) {
    const ok = finished.filter((e) => e.status === "completed").length;
    lines.push(`commands run: ${finished.length} (${ok} ok)`);
  }
  if (changes.length > 0) {
    lines.push(
      `changed: ${changes.map((c) => `\`${c.entitySlug}\` ${c.key} = ${JSON.stringify(c.newValue)}`).join("; ")}`,
    );
  }
  const verification = session?.verification?.trim();
  if (verification) lines.push(`verified: ${verification}`);
  lines.push(
    knowledgeTitles.length > 0
      ? `knowledge written: ${knowledgeTitles.join("; ")}`
      : "knowledge written: none",
  );
  const left = session?.left_open?.trim();
  if (left) lines.push(`follow-ups: ${left}`);
  else if (outcome !== "success") lines.push("follow-ups: not stated");
  const card: Card = { kind: "summary", title: `${icon} Task ${outcome}`, lines };
  const undoable = executions.filter((e) => {
    const snapshot = readExecutionSnapshot(e.snapshot);
    return snapshot?.state === "taken" && !snapshot.rolledBackAt && !snapshot.removedAt;
  });
  // What the run did compared with the preview the operator approved (issue #15).
  for (const { executionId, checks } of await outcomeChecksOfSession(db, sessionId))
    for (const line of outcomeLines(checks)) lines.push(`${line} (\`${executionId}\`)`);
  for (const e of executions) {
    const line = snapshotLine(e.snapshot);
    if (line) lines.push(`${line} (before \`${e.id}\`)`);
  }
  if (undoable.length > 0) {
    const latest = undoable.at(-1)!;
    card.hint = `React ⏪ (or press Roll back) to roll back to the snapshot taken before \`${latest.id}\` (or \`!oikos rollback ${latest.id}\`); it asks for a typed confirmation first.`;
    card.reactions = ["⏪"];
    card.actions = [{ id: "rollback", label: "Roll back", style: "danger" }];
  }
  return card;
}
