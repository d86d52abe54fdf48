import type { Kysely } from "kysely";
import type { Database } from "../../../store/schema.ts";
import type { Card } from "../card.ts";

/** The completion summary, posted as a threaded reply when a task completes. */
export async function buildSummaryCard(
  db: Kysely<Database>,
  sessionId: string,
  outcome: string,
): Promise<Card> {
  const session = await db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirst();
  const executions = await db
    .selectFrom("executions")
    .select(["status", "command", "target"])
    .where("session_id", "=", sessionId)
    .orderBy("created_at")
    .execute();
  const knowledge = await db
    .selectFrom("knowledge")
    .select(["title"])
    .where("session_id", "=", sessionId)
    .execute();
  const icon = outcome === "success" ? "✅" : outcome === "partial" ? "🟡" : "❌";
  const lines: string[] = [];
  if (session?.goal) lines.push(`goal: ${session.goal}`);
  if (session?.summary) lines.push(...session.summary.split("\n"));
  const ran = executions.filter((e) => ["succeeded", "completed", "failed", "timed_out"].includes(e.status));
  if (ran.length > 0) {
    lines.push(
      `commands run: ${ran.length} (${ran.filter((e) => e.status === "succeeded" || e.status === "completed").length} ok)`,
    );
  }
  lines.push(
    knowledge.length > 0
      ? `knowledge written: ${knowledge.map((k) => k.title).join("; ")}`
      : "knowledge written: none",
  );
  return { kind: "summary", title: `${icon} Task ${outcome}`, lines };
}
