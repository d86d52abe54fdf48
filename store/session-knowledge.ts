import type { Kysely } from "kysely";
import { upsertKnowledge } from "./knowledge.ts";
import type { Database } from "./schema.ts";

export interface SessionKnowledgeFacts {
  goal: string;
  outcome: string;
  at: Date;
  summary: string;
  verification?: string;
  root_cause?: string;
  left_open?: string;
}

/**
 * The automatic knowledge entry every closed task leaves, linked to the entities it touched. Returns
 * its slug, or null when it could not be written (logged; the completion itself stands).
 */
export async function writeSessionKnowledge(
  db: Kysely<Database>,
  sessionId: string,
  facts: SessionKnowledgeFacts,
  logger?: { error(object: object, message?: string): void },
): Promise<string | null> {
  const touched = new Set<string>();
  const targets = await db
    .selectFrom("executions")
    .select("target")
    .where("session_id", "=", sessionId)
    .execute();
  const steps = await db
    .selectFrom("plan_steps")
    .select("target")
    .where("session_id", "=", sessionId)
    .execute();
  const changes = await db
    .selectFrom("entity_attribute_changes")
    .select("entity_slug")
    .where("session_id", "=", sessionId)
    .execute();
  for (const slug of [
    ...targets.map((t) => t.target),
    ...steps.map((s) => s.target),
    ...changes.map((c) => c.entity_slug),
  ]) {
    if (slug) touched.add(slug);
  }
  const known =
    touched.size === 0
      ? []
      : (
          await db
            .selectFrom("entities")
            .select("slug")
            .where("slug", "in", [...touched])
            .execute()
        ).map((r) => r.slug);
  const date = facts.at.toISOString().slice(0, 10);
  const content = [
    `## Goal\n${facts.goal}`,
    `## Outcome\n${facts.outcome}`,
    `## Root cause\n${facts.root_cause ?? "not stated"}`,
    `## What was done\n${facts.summary}`,
    ...(facts.verification ? [`## Verification\n${facts.verification}`] : []),
    `## What was left\n${facts.left_open ?? (facts.outcome === "success" ? "nothing" : "not stated")}`,
  ].join("\n\n");
  try {
    const result = await upsertKnowledge(
      db,
      {
        title: `${date}: ${facts.goal.slice(0, 80)} (${sessionId.slice(0, 8)})`,
        content,
        kind: "investigation",
        about: known,
        tags: [`session:${sessionId}`, `outcome:${facts.outcome}`, "auto"],
      },
      { by: "oikos", sessionId },
    );
    return result.status === "unknown_entities" ? null : result.slug;
  } catch (error) {
    logger?.error({ err: error, sessionId }, "automatic knowledge entry failed");
    return null;
  }
}
