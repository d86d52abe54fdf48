import type { Kysely } from "kysely";
import { readExecutionSnapshot } from "../../../store/execution-snapshot.ts";
import type { Database } from "../../../store/schema.ts";
import type { Card } from "../card.ts";
import { snapshotLine } from "./card-lines.ts";

/**
 * The completion summary, posted as a threaded reply when a task completes: outcome, what was
 * done, what changed (entity write-backs), how it was verified, knowledge written, what is left.
 * Verification and follow-ups come from the task's automatic knowledge entry (complete_task).
 */
export async function buildSummaryCard(
  db: Kysely<Database>,
  sessionId: string,
  outcome: string,
): Promise<Card> {
  const session = await db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirst();
  const executions = await db
    .selectFrom("executions")
    .select(["id", "status", "snapshot"])
    .where("session_id", "=", sessionId)
    .orderBy("created_at")
    .execute();
  const knowledge = await db
    .selectFrom("knowledge")
    .select(["title", "content", "tags"])
    .where("session_id", "=", sessionId)
    .orderBy("id")
    .execute();
  const changes = await db
    .selectFrom("entity_attribute_changes")
    .select(["entity_slug", "key", "new_value"])
    .where("session_id", "=", sessionId)
    .orderBy("id")
    .limit(8)
    .execute();
  const auto = knowledge.find((k) => Array.isArray(k.tags) && k.tags.includes("auto"));
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
      `changed: ${changes.map((c) => `\`${c.entity_slug}\` ${c.key} = ${JSON.stringify(c.new_value)}`).join("; ")}`,
    );
  }
  const verification = auto && section(auto.content, "Verification");
  if (verification) lines.push(`verified: ${verification}`);
  lines.push(
    knowledge.length > 0
      ? `knowledge written: ${knowledge.map((k) => k.title).join("; ")}`
      : "knowledge written: none",
  );
  const left = auto && section(auto.content, "What was left");
  if (left && left !== "nothing") lines.push(`follow-ups: ${left}`);
  const card: Card = { kind: "summary", title: `${icon} Task ${outcome}`, lines };
  const undoable = executions.filter((e) => {
    const snapshot = readExecutionSnapshot(e.snapshot);
    return snapshot?.state === "taken" && !snapshot.rolledBackAt && !snapshot.removedAt;
  });
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

/** The text under `## <heading>` in a markdown document, up to the next heading. */
function section(markdown: string, heading: string): string | undefined {
  const match = new RegExp(`^## ${heading}\\n([\\s\\S]*?)(?=\\n## |$)`, "m").exec(markdown);
  return match?.[1]?.trim() || undefined;
}
